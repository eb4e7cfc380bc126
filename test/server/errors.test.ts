import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFake, type FakeApp } from '../../src/server/build.js';
import { API, basicOf, expectConforms, expectError, spec, USERS } from './helpers.js';

let app: FakeApp;
let seen: unknown[] = [];
const session = `${API}/users/session`;
const tokenPath = (id: string) => `${API}/users/${id}/auth-token`;

beforeAll(async () => {
  // getLimitBlockLog is built elsewhere; a recording stand-in shows that the guard and the
  // validation of an operation come from the document alone once any handler is registered.
  app = await buildFake({
    spec,
    handlers: {
      getLimitBlockLog: (request) => {
        seen.push(request.query);
        return [];
      },
    },
  });
});
afterAll(() => app.close());

describe('answers outside any operation', () => {
  it('an unknown path is 404 ROUTE_NOT_FOUND', async () => {
    expectError(await app.inject({ url: '/node/api/nothing-here' }), 404, 'ROUTE_NOT_FOUND');
    expectError(await app.inject({ url: `${API}/users/current/` }), 404, 'ROUTE_NOT_FOUND');
  });

  it('a body sent to an unknown path is not read: still 404', async () => {
    const response = await app.inject({ method: 'POST', url: '/nope', headers: { 'content-type': 'application/json' }, payload: '{oops' });
    expectError(response, 404, 'ROUTE_NOT_FOUND');
  });

  it('a known path with another method is 405 with Allow', async () => {
    const put = await app.inject({ method: 'PUT', url: `${API}/users/current` });
    expectError(put, 405, 'METHOD_NOT_ALLOWED');
    expect(put.headers.allow).toBe('GET');
    const get = await app.inject({ method: 'GET', url: tokenPath(USERS.admin.id) });
    expectError(get, 405, 'METHOD_NOT_ALLOWED');
    expect(get.headers.allow).toBe('POST, DELETE');
    const patch = await app.inject({ method: 'PATCH', url: session });
    expect(patch.headers.allow).toBe('POST, DELETE');
  });

  it('HEAD, which the document does not list, is 405', async () => {
    const head = await app.inject({ method: 'HEAD', url: `${API}/users/current` });
    expect(head.statusCode).toBe(405);
    expect(head.headers.allow).toBe('GET');
  });

  it('a path that is not a valid URL is 400, not 5xx', async () => {
    expectError(await app.inject({ url: `${API}/users/%zz/auth-token`, method: 'POST', headers: basicOf('admin') }), 400, 'INVALID_PARAMETER');
  });
});

describe('bodies', () => {
  const login = { login: 'admin', password: 'admin-password' };

  it('malformed JSON is 400 MALFORMED_JSON', async () => {
    for (const payload of ['{"login": "admin",', 'nope', '{"__proto__": {"x": 1}, "login": "a", "password": "b"}']) {
      const response = await app.inject({ method: 'POST', url: session, headers: { 'content-type': 'application/json' }, payload });
      expectError(response, 400, 'MALFORMED_JSON');
      expectConforms('createSession', response);
    }
  });

  it('a body without Content-Type application/json is 415', async () => {
    const plain = await app.inject({ method: 'POST', url: session, headers: { 'content-type': 'text/plain' }, payload: JSON.stringify(login) });
    expectError(plain, 415, 'UNSUPPORTED_MEDIA_TYPE');
    expectConforms('createSession', plain);
    const none = await app.inject({ method: 'POST', url: session, payload: Buffer.from(JSON.stringify(login)) });
    expectError(none, 415, 'UNSUPPORTED_MEDIA_TYPE');
    const form = await app.inject({ method: 'POST', url: session, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'login=admin' });
    expectError(form, 415, 'UNSUPPORTED_MEDIA_TYPE');
  });

  it('application/json with a charset is JSON', async () => {
    const response = await app.inject({
      method: 'POST',
      url: session,
      headers: { 'content-type': 'application/json; charset=utf-8' },
      payload: JSON.stringify(login),
    });
    expect(response.statusCode).toBe(200);
    expectConforms('createSession', response);
  });

  it('a body over 64 KiB is 413', async () => {
    const response = await app.inject({ method: 'POST', url: session, payload: { login: 'x'.repeat(64 * 1024), password: 'y' } });
    expectError(response, 413, 'PAYLOAD_TOO_LARGE');
    expectConforms('createSession', response);
  });

  it('an operation without a request body ignores any body sent to it', async () => {
    const text = await app.inject({ method: 'POST', url: tokenPath(USERS.viewer.id), headers: { ...basicOf('admin'), 'content-type': 'text/plain' }, payload: 'hi' });
    expect(text.statusCode).toBe(200);
    expectConforms('createAuthToken', text);
    const login = await app.inject({ method: 'POST', url: session, payload: { login: 'viewer', password: 'viewer-password' } });
    const sid = login.cookies.find((c) => c.name === 'sid')!.value;
    const out = await app.inject({ method: 'DELETE', url: session, cookies: { sid }, headers: { 'content-type': 'application/json' }, payload: '{oops' });
    expect(out.statusCode).toBe(204);
    expectConforms('deleteSession', out);
  });

  it('an empty body with Content-Type application/json is no body', async () => {
    const bodiless = await app.inject({ method: 'POST', url: tokenPath(USERS.viewer.id), headers: { ...basicOf('admin'), 'content-type': 'application/json' } });
    expect(bodiless.statusCode).toBe(200);
    expectConforms('createAuthToken', bodiless);
    const missing = await app.inject({ method: 'POST', url: session, headers: { 'content-type': 'application/json' } });
    const body = expectError(missing, 400, 'INVALID_BODY');
    expect(body.details).toEqual([{ location: 'body', name: '/', problem: 'is required' }]);
  });
});

describe('validation', () => {
  it('names each wrong body field and its problem', async () => {
    const response = await app.inject({ method: 'POST', url: session, payload: { login: '', password: 5, remember: true } });
    const body = expectError(response, 400, 'INVALID_BODY');
    expectConforms('createSession', response);
    expect(body.details).toEqual(
      expect.arrayContaining([
        { location: 'body', name: '/login', problem: 'must NOT have fewer than 1 characters, not ""' },
        { location: 'body', name: '/password', problem: 'must be string' },
        { location: 'body', name: '/remember', problem: 'is not allowed; allowed: "login", "password"' },
      ]),
    );
    expect(body.details).toHaveLength(3);
    const missing = await app.inject({ method: 'POST', url: session, payload: { login: 'admin' } });
    expect(expectError(missing, 400, 'INVALID_BODY').details).toEqual([{ location: 'body', name: '/password', problem: 'is required' }]);
  });

  it('a JSON body is not coerced: a number is not a string', async () => {
    const response = await app.inject({ method: 'POST', url: session, payload: { login: 'admin', password: 12345 } });
    expectError(response, 400, 'INVALID_BODY');
  });

  it('names a malformed path parameter', async () => {
    const response = await app.inject({ method: 'POST', url: tokenPath('not-an-object-id'), headers: basicOf('admin') });
    const body = expectError(response, 400, 'INVALID_PARAMETER');
    expectConforms('createAuthToken', response);
    expect(body.details).toEqual([{ location: 'path', name: 'id', problem: 'must match pattern "^[0-9a-f]{24}$", not "not-an-object-id"' }]);
    expect(body.message).toBe('path parameter "id" must match pattern "^[0-9a-f]{24}$", not "not-an-object-id"');
  });

  it('names a header that breaks its schema', async () => {
    const login = await app.inject({ method: 'POST', url: session, payload: { login: 'viewer', password: 'viewer-password' } });
    const sid = login.cookies.find((c) => c.name === 'sid')!.value;
    const response = await app.inject({ method: 'DELETE', url: session, cookies: { sid }, headers: { 'x-csrf-token': 'x'.repeat(201) } });
    const body = expectError(response, 400, 'INVALID_PARAMETER');
    expect(body.details).toEqual([{ location: 'header', name: 'x-csrf-token', problem: `must NOT have more than 200 characters, not "${'x'.repeat(40)}"…` }]);
  });

  it('coerces query parameters to the document types and names a wrong one', async () => {
    seen = [];
    const ok = await app.inject({ url: `${API}/limit-block-log?limit=5&ip=true`, headers: basicOf('admin') });
    expect(ok.statusCode).toBe(200);
    expectConforms('getLimitBlockLog', ok);
    expect(seen).toEqual([{ limit: 5, ip: true }]);
    const bad = await app.inject({ url: `${API}/limit-block-log?limit=-1&ip=maybe`, headers: basicOf('admin') });
    const body = expectError(bad, 400, 'INVALID_PARAMETER');
    expectConforms('getLimitBlockLog', bad);
    expect(body.details).toEqual(
      expect.arrayContaining([
        { location: 'query', name: 'limit', problem: 'must be >= 0, not -1' },
        { location: 'query', name: 'ip', problem: 'must be boolean, not "maybe"' },
      ]),
    );
  });
});

describe('order: 401, then 403, then 400, then the handler', () => {
  const malformed = { 'content-type': 'application/json' };

  it('an anonymous caller gets 401 whatever else is wrong', async () => {
    const cases = [
      { method: 'POST' as const, url: tokenPath('bad-id'), headers: malformed, payload: '{oops' },
      { method: 'POST' as const, url: tokenPath(USERS.admin.id), headers: { 'content-type': 'text/plain' }, payload: 'x' },
      { method: 'POST' as const, url: tokenPath(USERS.admin.id), headers: malformed, payload: JSON.stringify({ a: 'x'.repeat(70_000) }) },
      { method: 'GET' as const, url: `${API}/limit-block-log?limit=-5&ip=maybe` },
      { method: 'DELETE' as const, url: session, headers: { 'x-csrf-token': 'x'.repeat(500) } },
    ];
    for (const request of cases) {
      const response = await app.inject(request);
      expectError(response, 401, 'UNAUTHENTICATED');
    }
  });

  it('a caller without the permission gets 403 before any validation', async () => {
    const response = await app.inject({ method: 'POST', url: tokenPath('bad-id'), headers: { ...basicOf('viewer'), ...malformed }, payload: '{oops' });
    expect(expectError(response, 403, 'PERMISSION_DENIED').permission).toBe('manage-users');
    const query = await app.inject({ url: `${API}/limit-block-log?limit=-5`, headers: basicOf('operator') });
    expect(expectError(query, 403, 'PERMISSION_DENIED').permission).toBe('manage-users');
    expectConforms('getLimitBlockLog', query);
  });

  it('a permitted caller gets 400 for bad input and 404 for an unknown user', async () => {
    const bad = await app.inject({ method: 'POST', url: tokenPath('bad-id'), headers: basicOf('admin') });
    expectError(bad, 400, 'INVALID_PARAMETER');
    const unknown = await app.inject({ method: 'DELETE', url: tokenPath('5867948233835d9661c5ffff'), headers: basicOf('admin') });
    expectError(unknown, 404, 'NOT_FOUND');
    expectConforms('revokeAuthToken', unknown);
  });
});

describe('problems that say what to do', () => {
  it('name the enum\'s values and what was sent', async () => {
    const response = await app.inject({ url: `${API}/event-log?type=snmp`, headers: basicOf('viewer') });
    const body = expectError(response, 400, 'INVALID_PARAMETER');
    expect(body.message).toBe('query parameter "type" must be one of "1", "2", not "snmp"');
  });

  it('never repeat a secret sent: a password too long is named, not shown', async () => {
    const password = 'p'.repeat(300);
    const response = await app.inject({ method: 'POST', url: session, payload: { login: 'admin', password } });
    const body = expectError(response, 400, 'INVALID_BODY');
    expect(body.details).toEqual([{ location: 'body', name: '/password', problem: 'must NOT have more than 256 characters' }]);
    expect(response.body).not.toContain('ppp');
  });
});
