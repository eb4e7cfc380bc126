import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildFake, type FakeApp } from '../../src/server/build.js';
import { API, basic, basicOf, cookieValue, expectConforms, spec, USERS, type UserName } from './helpers.js';

// Every operation that has a handler, each auth method, each seeded user: the status the
// document promises, written out by hand. Order of the methods: basic, session, api-token, auth-token.
type Method = 'basic' | 'session' | 'api-token' | 'auth-token';
const METHODS: readonly Method[] = ['basic', 'session', 'api-token', 'auth-token'];
const USER_NAMES: readonly UserName[] = ['admin', 'operator', 'viewer'];
type Row = readonly [number, number, number, number];

const EXPECTED: Record<string, { users: Record<UserName, Row>; anonymous: number }> = {
  getCurrentUser: {
    users: { admin: [200, 200, 200, 200], operator: [200, 200, 200, 200], viewer: [200, 200, 200, 200] },
    anonymous: 401,
  },
  createAuthToken: {
    users: { admin: [200, 401, 401, 401], operator: [403, 401, 401, 401], viewer: [403, 401, 401, 401] },
    anonymous: 401,
  },
  revokeAuthToken: {
    users: { admin: [204, 401, 401, 401], operator: [403, 401, 401, 401], viewer: [403, 401, 401, 401] },
    anonymous: 401,
  },
  // No authentication: the body's login and password decide; credentials sent besides are ignored.
  createSession: {
    users: { admin: [200, 200, 200, 200], operator: [200, 200, 200, 200], viewer: [200, 200, 200, 200] },
    anonymous: 200,
  },
  deleteSession: {
    users: { admin: [401, 204, 401, 401], operator: [401, 204, 401, 401], viewer: [401, 204, 401, 401] },
    anonymous: 401,
  },
  // Spec 4.4 names no permission: any authenticated caller reads the event log.
  getEventLog: {
    users: { admin: [200, 200, 200, 200], operator: [200, 200, 200, 200], viewer: [200, 200, 200, 200] },
    anonymous: 401,
  },
  // Spec 4.5: manage-event-log.
  updateEventLogPayload: {
    users: { admin: [204, 204, 204, 204], operator: [204, 204, 204, 204], viewer: [403, 403, 403, 403] },
    anonymous: 401,
  },
  // Spec 4.6: manage-users.
  getLimitBlockLog: {
    users: { admin: [200, 200, 200, 200], operator: [403, 403, 403, 403], viewer: [403, 403, 403, 403] },
    anonymous: 401,
  },
};
const CODES: Record<number, string> = { 401: 'UNAUTHENTICATED', 403: 'PERMISSION_DENIED' };
// The permission a 403 names, per operation (spec 4.1, 4.5, 4.6).
const PERMISSION: Record<string, string> = {
  createAuthToken: 'manage-users',
  revokeAuthToken: 'manage-users',
  updateEventLogPayload: 'manage-event-log',
  getLimitBlockLog: 'manage-users',
};

/** The request of each operation, for a caller whose credentials are added later. */
function requestFor(operationId: string, bodyUser: UserName = 'admin'): InjectOptions {
  const target = `${API}/users/${USERS.viewer.id}/auth-token`;
  switch (operationId) {
    case 'getCurrentUser':
      return { method: 'GET', url: `${API}/users/current` };
    case 'createAuthToken':
      return { method: 'POST', url: target };
    case 'revokeAuthToken':
      return { method: 'DELETE', url: target };
    case 'createSession':
      return { method: 'POST', url: `${API}/users/session`, payload: { login: USERS[bodyUser].login, password: USERS[bodyUser].password } };
    case 'deleteSession':
      return { method: 'DELETE', url: `${API}/users/session` };
    case 'getEventLog':
      return { method: 'GET', url: `${API}/event-log?limit=5&type=1` };
    case 'updateEventLogPayload':
      // An SNMP trap of fixtures/events.json.
      return { method: 'PATCH', url: `${API}/event-log/68b25f476669787472000001/payload`, payload: { text: 'acknowledged' } };
    case 'getLimitBlockLog':
      return { method: 'GET', url: `${API}/limit-block-log?limit=5` };
    default:
      throw new Error(`no request for ${operationId}`);
  }
}

/** Credentials of a kind, as headers, cookies and query to merge into a request. */
interface Credentials {
  headers?: Record<string, string>;
  cookies?: Record<string, string>;
  query?: Record<string, string>;
}

function withCredentials(request: InjectOptions, credentials: Credentials): InjectOptions {
  const url = new URL(String(request.url), 'http://fake');
  for (const [k, v] of Object.entries(credentials.query ?? {})) url.searchParams.set(k, v);
  return {
    ...request,
    url: url.pathname + url.search,
    headers: { ...(request.headers as Record<string, string>), ...credentials.headers },
    cookies: credentials.cookies,
  };
}

let app: FakeApp;
let tokenOffApp: FakeApp;

async function login(target: FakeApp, user: UserName): Promise<string> {
  const response = await target.inject(requestFor('createSession', user));
  expect(response.statusCode).toBe(200);
  return cookieValue(response, 'sid');
}

async function issueToken(target: FakeApp, user: UserName): Promise<string> {
  const response = await target.inject({ method: 'POST', url: `${API}/users/${USERS[user].id}/auth-token`, headers: basicOf('admin') });
  expect(response.statusCode).toBe(200);
  return JSON.parse(response.body) as string;
}

async function credentialsOf(method: Method, user: UserName): Promise<Credentials> {
  switch (method) {
    case 'basic':
      return { headers: basicOf(user) };
    case 'session':
      return { cookies: { sid: await login(app, user) } };
    case 'api-token':
    case 'auth-token':
      return { query: { [method]: await issueToken(app, user) } };
  }
}

function expectAnswer(operationId: string, response: LightMyRequestResponse, status: number, code = CODES[status]): void {
  expect(response.statusCode, response.body).toBe(status);
  expectConforms(operationId, response);
  if (code) expect(JSON.parse(response.body).code).toBe(code);
  if (status === 403) expect(JSON.parse(response.body).permission).toBe(PERMISSION[operationId]);
  expect(response.headers['www-authenticate']).toBeUndefined();
}

beforeAll(async () => {
  app = await buildFake({ spec });
  tokenOffApp = await buildFake({ spec, tokenAuthEnabled: false });
});
afterAll(async () => {
  await app.close();
  await tokenOffApp.close();
});
beforeEach(() => {
  app.fake.state.reset();
  tokenOffApp.fake.state.reset();
});

it('covers every operation that has a handler', () => {
  expect(Object.keys(EXPECTED).sort()).toEqual([...app.fake.registered].sort());
});

describe.each(Object.keys(EXPECTED))('%s', (operationId) => {
  const expected = EXPECTED[operationId]!;
  const cases = USER_NAMES.flatMap((user) => METHODS.map((method, i) => ({ user, method, status: expected.users[user][i]! })));

  it.each(cases)('$method as $user → $status', async ({ user, method, status }) => {
    const response = await app.inject(withCredentials(requestFor(operationId, user), await credentialsOf(method, user)));
    expectAnswer(operationId, response, status);
    if (operationId === 'getCurrentUser') expect(JSON.parse(response.body).login).toBe(user);
  });

  it(`without credentials → ${expected.anonymous}`, async () => {
    expectAnswer(operationId, await app.inject(requestFor(operationId)), expected.anonymous);
  });

  // Bad credentials of every kind, each for the admin (who may do everything), so only the credential can be at fault.
  const refused = operationId === 'createSession' ? 200 : 401;
  const bad: Record<string, () => Promise<Credentials>> = {
    'wrong password': async () => ({ headers: { authorization: basic('admin', 'not-the-password') } }),
    'unknown login': async () => ({ headers: { authorization: basic('nobody', 'admin-password') } }),
    'Basic without credentials': async () => ({ headers: { authorization: 'Basic' } }),
    'Basic that is not base64': async () => ({ headers: { authorization: 'Basic !!!not-base64!!!' } }),
    'Basic without a colon': async () => ({ headers: { authorization: `Basic ${Buffer.from('admin').toString('base64')}` } }),
    'another scheme': async () => ({ headers: { authorization: 'Bearer 32925106-8c56-41d1-8713-410f203e8ce0' } }),
    'forged api-token': async () => ({ query: { 'api-token': '32925106-8c56-41d1-8713-410f203e8ce0' } }),
    'forged auth-token': async () => ({ query: { 'auth-token': 'not-a-token' } }),
    'forged session cookie': async () => ({ cookies: { sid: '7b9d2b27-a47d-4bbe-a2f7-2c63bf356db0' } }),
    'replaced token': async () => {
      const old = await issueToken(app, 'admin');
      await issueToken(app, 'admin');
      return { query: { 'api-token': old } };
    },
    'revoked token': async () => {
      const token = await issueToken(app, 'admin');
      const revoked = await app.inject({ method: 'DELETE', url: `${API}/users/${USERS.admin.id}/auth-token`, headers: basicOf('admin') });
      expect(revoked.statusCode).toBe(204);
      return { query: { 'auth-token': token } };
    },
    'logged-out session': async () => {
      const sid = await login(app, 'admin');
      const out = await app.inject({ method: 'DELETE', url: `${API}/users/session`, cookies: { sid } });
      expect(out.statusCode).toBe(204);
      return { cookies: { sid } };
    },
  };
  it.each(Object.keys(bad))(`%s → ${refused}`, async (name) => {
    const response = await app.inject(withCredentials(requestFor(operationId), await bad[name]!()));
    expectAnswer(operationId, response, refused);
  });

  // Only an operation that accepts tokens says why; elsewhere a token is simply no credential.
  const tokenOff = {
    getCurrentUser: [401, 'TOKEN_AUTH_DISABLED'],
    getEventLog: [401, 'TOKEN_AUTH_DISABLED'],
    updateEventLogPayload: [401, 'TOKEN_AUTH_DISABLED'],
    getLimitBlockLog: [401, 'TOKEN_AUTH_DISABLED'],
    createSession: [200],
  }[operationId] ?? [401, 'UNAUTHENTICATED'];
  it(`a valid token while token authentication is off → ${tokenOff.join(' ')}`, async () => {
    const token = await issueToken(tokenOffApp, 'admin');
    const response = await tokenOffApp.inject(withCredentials(requestFor(operationId), { query: { 'api-token': token } }));
    expectAnswer(operationId, response, tokenOff[0] as number, tokenOff[1] as string | undefined);
  });
});

describe('credentials beside each other', () => {
  // The admin's right Basic credentials plus a forged token: an operation that takes tokens
  // refuses the request; a Basic-only one never looks at the token.
  const forged = '32925106-8c56-41d1-8713-410f203e8ce0';
  const expected: Record<string, number> = {
    getCurrentUser: 401,
    createAuthToken: 200,
    revokeAuthToken: 204,
    createSession: 200,
    deleteSession: 401,
  };
  it.each(Object.entries(expected))('%s → %i', async (operationId, status) => {
    const request = withCredentials(requestFor(operationId), { headers: basicOf('admin'), query: { 'api-token': forged } });
    expectAnswer(operationId, await app.inject(request), status);
  });

  it('a browser session cookie does not spoil a Basic-only call', async () => {
    const sid = await login(app, 'viewer');
    const request = withCredentials(requestFor('createAuthToken'), { headers: basicOf('admin'), cookies: { sid } });
    expectAnswer('createAuthToken', await app.inject(request), 200);
  });

  it('credentials of two different users are refused', async () => {
    const sid = await login(app, 'viewer');
    const request = withCredentials(requestFor('getCurrentUser'), { headers: basicOf('admin'), cookies: { sid } });
    expectAnswer('getCurrentUser', await app.inject(request), 401);
  });

  it('a repeated token parameter is refused', async () => {
    const token = await issueToken(app, 'admin');
    const response = await app.inject({ url: `${API}/users/current?api-token=${token}&api-token=${token}` });
    expectAnswer('getCurrentUser', response, 401);
  });
});

describe('token authentication off', () => {
  it('still takes Basic and session credentials', async () => {
    const byBasic = await tokenOffApp.inject({ url: `${API}/users/current`, headers: basicOf('viewer') });
    expectAnswer('getCurrentUser', byBasic, 200);
    const sid = await login(tokenOffApp, 'viewer');
    expectAnswer('getCurrentUser', await tokenOffApp.inject({ url: `${API}/users/current`, cookies: { sid } }), 200);
  });

  it('refuses auth-token as well', async () => {
    const token = await issueToken(tokenOffApp, 'viewer');
    const response = await tokenOffApp.inject({ url: `${API}/users/current?auth-token=${token}` });
    expectAnswer('getCurrentUser', response, 401, 'TOKEN_AUTH_DISABLED');
  });
});
