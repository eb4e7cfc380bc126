import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildFake, type FakeApp } from '../../src/server/build.js';
import { API, basicOf, expectConforms, spec, USERS } from './helpers.js';

let app: FakeApp;
const current = `${API}/users/current`;
const tokenPath = (id: string) => `${API}/users/${id}/auth-token`;

beforeAll(async () => {
  app = await buildFake({ spec });
});
afterAll(() => app.close());
beforeEach(() => app.fake.state.reset());

async function createToken(id: string) {
  const response = await app.inject({ method: 'POST', url: tokenPath(id), headers: basicOf('admin') });
  expect(response.statusCode).toBe(200);
  expectConforms('createAuthToken', response);
  return JSON.parse(response.body) as string;
}

describe('GET /users/current', () => {
  it('returns the caller record with id, login and permissions, and never a password', async () => {
    const cases = {
      admin: ['manage-users', 'manage-event-log', 'manage-configuration'],
      operator: ['manage-event-log'],
      viewer: [],
    } as const;
    for (const [name, permissions] of Object.entries(cases)) {
      const response = await app.inject({ url: current, headers: basicOf(name as keyof typeof cases) });
      expectConforms('getCurrentUser', response);
      const user = USERS[name as keyof typeof cases];
      expect(JSON.parse(response.body)).toEqual({ id: user.id, login: user.login, permissions });
      expect(response.body).not.toContain(user.password);
      expect(response.body).not.toMatch(/password/i);
    }
  });

  it('shows authenticationToken once the user has a token', async () => {
    const token = await createToken(USERS.operator.id);
    const response = await app.inject({ url: `${current}?api-token=${token}` });
    expectConforms('getCurrentUser', response);
    expect(JSON.parse(response.body)).toMatchObject({ login: 'operator', authenticationToken: token });
  });
});

describe('tokens', () => {
  it('creates a UUID token that authenticates its user under both parameter names', async () => {
    const token = await createToken(USERS.viewer.id);
    expect(token).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    for (const name of ['api-token', 'auth-token']) {
      const response = await app.inject({ url: `${current}?${name}=${token}` });
      expect(response.statusCode).toBe(200);
      expect(JSON.parse(response.body).id).toBe(USERS.viewer.id);
    }
  });

  it('a new token replaces the old one, which stops working at once', async () => {
    const old = await createToken(USERS.viewer.id);
    const fresh = await createToken(USERS.viewer.id);
    expect(fresh).not.toBe(old);
    expect((await app.inject({ url: `${current}?api-token=${old}` })).statusCode).toBe(401);
    const me = await app.inject({ url: `${current}?api-token=${fresh}` });
    expect(JSON.parse(me.body).authenticationToken).toBe(fresh);
    const seenByBasic = await app.inject({ url: current, headers: basicOf('viewer') });
    expect(JSON.parse(seenByBasic.body).authenticationToken).toBe(fresh);
  });

  it('revoking answers 204, the token stops working and leaves the record', async () => {
    const token = await createToken(USERS.operator.id);
    const revoked = await app.inject({ method: 'DELETE', url: tokenPath(USERS.operator.id), headers: basicOf('admin') });
    expect(revoked.statusCode).toBe(204);
    expect(revoked.body).toBe('');
    expectConforms('revokeAuthToken', revoked);
    expect((await app.inject({ url: `${current}?api-token=${token}` })).statusCode).toBe(401);
    const record = JSON.parse((await app.inject({ url: current, headers: basicOf('operator') })).body);
    expect(record).not.toHaveProperty('authenticationToken');
    // Revoking when there is no token succeeds as well.
    const again = await app.inject({ method: 'DELETE', url: tokenPath(USERS.operator.id), headers: basicOf('admin') });
    expect(again.statusCode).toBe(204);
  });

  it('tokens of different users are independent', async () => {
    const a = await createToken(USERS.admin.id);
    const v = await createToken(USERS.viewer.id);
    expect(JSON.parse((await app.inject({ url: `${current}?api-token=${a}` })).body).login).toBe('admin');
    expect(JSON.parse((await app.inject({ url: `${current}?api-token=${v}` })).body).login).toBe('viewer');
  });

  it('an unknown user is 404 and a malformed id 400', async () => {
    const unknown = await app.inject({ method: 'POST', url: tokenPath('5867948233835d9661c5ffff'), headers: basicOf('admin') });
    expect(unknown.statusCode).toBe(404);
    expect(JSON.parse(unknown.body).code).toBe('NOT_FOUND');
    expectConforms('createAuthToken', unknown);
    const malformed = await app.inject({ method: 'POST', url: tokenPath('5867948233835D9661C56DC8'), headers: basicOf('admin') });
    expect(malformed.statusCode).toBe(400);
    expectConforms('createAuthToken', malformed);
  });

  it('a viewer cannot create tokens, even its own', async () => {
    const response = await app.inject({ method: 'POST', url: tokenPath(USERS.viewer.id), headers: basicOf('viewer') });
    expect(response.statusCode).toBe(403);
    expect(JSON.parse(response.body)).toMatchObject({ code: 'PERMISSION_DENIED', permission: 'manage-users' });
  });

  it('reset forgets tokens made since the seed', async () => {
    const token = await createToken(USERS.viewer.id);
    app.fake.state.reset();
    expect((await app.inject({ url: `${current}?api-token=${token}` })).statusCode).toBe(401);
  });
});
