import { afterAll, describe, expect, it } from 'vitest';
import { buildFake } from '../../src/server/build.js';
import { errorCatalog } from '../../src/spec/index.js';
import { API, USERS, basic, basicOf, cookieValue, expectConforms, spec } from './helpers.js';

// Every 401 says which credential failed and why, in the words of the document's error list
// (`x-messages` of UNAUTHENTICATED), and never repeats the credential.
const lines: string[] = [];
const app = await buildFake({ spec, docs: false, records: 0, logger: { level: 'info', stream: { write: (line) => void lines.push(line) } } });
afterAll(() => app.close());

const messages = errorCatalog(spec.document).get('UNAUTHENTICATED')!.messages;
const message = (name: string, values: Record<string, string> = {}) => messages[name]!.replace(/\{(\w+)\}/g, (_, key: string) => values[key]!);
const STALE_SID = '7b9d2b27-a47d-4bbe-a2f7-2c63bf356db0';
const TOKEN = '32925106-8c56-41d1-8713-410f203e8ce0';

async function currentUser(headers: Record<string, string>, query = '') {
  const response = await app.inject({ url: `${API}/users/current${query}`, headers });
  expectConforms('getCurrentUser', response);
  const body = JSON.parse(response.body) as { code?: string; message?: string; login?: string };
  return { status: response.statusCode, ...body, raw: response.body };
}

async function logIn(login: keyof typeof USERS, headers: Record<string, string> = {}) {
  const response = await app.inject({
    method: 'POST',
    url: `${API}/users/session`,
    payload: { login: USERS[login].login, password: USERS[login].password },
    headers,
  });
  expectConforms('createSession', response);
  return cookieValue(response, 'sid');
}

describe('the 401 of a request with credentials', () => {
  it('says which credential failed and why, from the document', async () => {
    const admin = basicOf('admin').authorization;
    // A stale session cookie (say, after a restart) next to valid Basic credentials.
    const stale = await currentUser({ authorization: admin, cookie: `sid=${STALE_SID}` });
    expect(stale).toMatchObject({ status: 401, code: 'UNAUTHENTICATED', message: message('sessionUnknown', { name: 'sid' }) });
    expect(stale.message).toMatch(/^The session cookie `sid` names no live session/);

    expect(await currentUser({ authorization: basic('admin', 'not-the-password') })).toMatchObject({ status: 401, message: message('basicWrong') });
    expect(await currentUser({ authorization: 'Bearer abc' })).toMatchObject({ status: 401, message: message('basicMalformed') });
    expect(await currentUser({}, `?api-token=${TOKEN}`)).toMatchObject({ status: 401, message: message('tokenUnknown', { name: 'api-token' }) });
    expect(await currentUser({}, `?auth-token=${TOKEN}`)).toMatchObject({ status: 401, message: message('tokenUnknown', { name: 'auth-token' }) });
    expect(await currentUser({})).toMatchObject({ status: 401, message: message('missing') });

    // Two valid credentials of two users.
    const viewerSid = await logIn('viewer');
    const two = await currentUser({ authorization: admin, cookie: `sid=${viewerSid}` });
    expect(two).toMatchObject({ status: 401, message: message('differentUsers', { first: 'basicAuth', second: 'sessionCookie' }) });
    // Each alone is fine.
    expect(await currentUser({ cookie: `sid=${viewerSid}` })).toMatchObject({ status: 200, login: 'viewer' });
    expect(await currentUser({ authorization: admin })).toMatchObject({ status: 200, login: 'admin' });

    // No answer repeats a credential, in any encoding.
    for (const secret of [STALE_SID, TOKEN, viewerSid, 'not-the-password', admin.slice(6), USERS.admin.password]) {
      for (const answer of [stale, two]) expect(answer.raw).not.toContain(secret);
    }
  });
});

describe('a session cookie sent more than once', () => {
  it('with different values is 401 naming the cookie, in either order, live or not, changing nothing; the same value twice is one cookie', async () => {
    const [first, second, other] = [await logIn('viewer'), await logIn('viewer'), await logIn('operator')];
    const repeated = message('sessionRepeated', { name: 'sid' });
    expect(repeated).toMatch(/^The session cookie `sid` was sent more than once, with different values/);
    for (const cookie of [`sid=${first}; sid=${second}`, `sid=${second}; sid=${first}`, `sid=${first}; csrf=x; sid=${other}`, `sid=${STALE_SID}; sid=${first}`, `sid=${first}; sid=${STALE_SID}`]) {
      const answer = await currentUser({ cookie });
      expect(answer, cookie).toMatchObject({ status: 401, code: 'UNAUTHENTICATED', message: repeated });
      for (const secret of [first, second, other, STALE_SID]) expect(answer.raw).not.toContain(secret);
      // With valid Basic credentials of the same user too: every credential sent must be valid.
      expect(await currentUser({ cookie, ...basicOf('viewer') })).toMatchObject({ status: 401, message: repeated });
    }
    // Logging out with two cookies logs neither out.
    const logOut = await app.inject({ method: 'DELETE', url: `${API}/users/session`, headers: { cookie: `sid=${first}; sid=${second}` } });
    expectConforms('deleteSession', logOut);
    expect(JSON.parse(logOut.body)).toMatchObject({ status: 401, message: repeated });
    for (const sid of [first, second]) expect(await currentUser({ cookie: `sid=${sid}` })).toMatchObject({ status: 200, login: 'viewer' });

    expect(await currentUser({ cookie: `sid=${first}; sid=${first}` })).toMatchObject({ status: 200, login: 'viewer' });
    expect(await currentUser({ cookie: `sid=${first};sid=${first}; xsid=${second}` })).toMatchObject({ status: 200, login: 'viewer' });
    // An operation that takes no session cookie does not look at it.
    const token = await app.inject({ method: 'POST', url: `${API}/users/${USERS.viewer.id}/auth-token`, headers: { ...basicOf('admin'), cookie: `sid=${first}; sid=${second}` } });
    expect(token.statusCode, token.body).toBe(200);
    expectConforms('createAuthToken', token);
  });
});

describe('a cookie-less request from a page on another host name than the session', () => {
  it('is told why its cookie did not come, in the 401 and in the log', async () => {
    await app.inject({ method: 'DELETE', url: '/__control/sessions' });
    // Logged in through 127.0.0.1, from a page on localhost.
    await logIn('operator', { host: '127.0.0.1:4010', origin: 'http://localhost:5173' });
    lines.length = 0;
    const from = (origin: string, host = '127.0.0.1:4010') => currentUser({ host, origin });

    const explained = await from('http://localhost:5173');
    expect(explained).toMatchObject({ status: 401, code: 'UNAUTHENTICATED', message: message('cookieForOtherHost', { sessionHost: '127.0.0.1', pageHost: 'localhost' }) });
    expect(explained.message).toContain('a session was created on 127.0.0.1, but this page is on localhost');
    await new Promise((resolve) => setTimeout(resolve, 150));
    const logged = lines.map((line) => JSON.parse(line) as { msg: string; level: number; sessionHost?: string; pageHost?: string }).find((line) => line.msg === explained.message);
    expect(logged).toMatchObject({ sessionHost: '127.0.0.1', pageHost: 'localhost' });

    // A page on the session's own host name, an origin that is not allowed, and no origin at all get the plain answer.
    expect((await from('http://127.0.0.1:5173')).message).toBe(message('missing'));
    expect((await from('http://evil.example')).message).toBe(message('missing'));
    expect((await currentUser({ host: '127.0.0.1:4010' })).message).toBe(message('missing'));
    // Once the session is gone, there is nothing to explain.
    await app.inject({ method: 'DELETE', url: '/__control/sessions' });
    expect((await from('http://localhost:5173')).message).toBe(message('missing'));
  });
});
