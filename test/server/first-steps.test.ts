import { afterAll, describe, expect, it } from 'vitest';
import { buildFake } from '../../src/server/build.js';
import { API, basicOf, cookieValue, expectError, spec } from './helpers.js';
import { control } from './control/helpers.js';

// What a newcomer meets first: the paths one tries, Prism's habits, a reset between tests.
const app = await buildFake({ spec, docs: false, records: 20 });
afterAll(() => app.close());

describe('the paths a newcomer tries first', () => {
  it.each(['/', API, `${API}/`])('%s answers the document\'s 404, pointing to the docs, the inspector and the logins', async (url) => {
    const body = expectError(await app.inject({ url }), 404, 'ROUTE_NOT_FOUND');
    expect(body.message).toMatch(/under \/node\/api\. Its docs, with "Try it out", are at \/docs; the requests the fake answered, at \/__inspector; log in as admin, operator or viewer \(/);
  });

  it('any other unknown path keeps the short 404', async () => {
    expect(expectError(await app.inject({ url: '/nodes' }), 404, 'ROUTE_NOT_FOUND').message).toBe('No operation has the path "/nodes".');
  });
});

describe('Prism\'s Prefer: example=', () => {
  it('is refused with 400 naming the header, not ignored', async () => {
    const response = await app.inject({ url: `${API}/users/current`, headers: { ...basicOf('viewer'), prefer: 'example=admin' } });
    const body = expectError(response, 400, 'INVALID_PARAMETER');
    expect(body.message).toBe('header "prefer" asks for the example "admin"; the fake answers from its data, never from a named example: send code= or latency= only.');
    expect(body.details).toEqual([{ location: 'header', name: 'prefer', problem: body.message }]);
  });
});

describe('resetState and the sessions', () => {
  const logIn = async () => cookieValue(await app.inject({ method: 'POST', url: `${API}/users/session`, payload: { login: 'viewer', password: 'viewer-password' } }), 'sid');
  const me = (sid: string) => app.inject({ url: `${API}/users/current`, cookies: { sid } });

  it('logs every session out by default', async () => {
    const sid = await logIn();
    expect((await control(app, 'resetState')).body).toMatchObject({ sessions: 0 });
    expect((await me(sid)).statusCode).toBe(401);
  });

  it('keeps them with keepSessions=true', async () => {
    const sid = await logIn();
    expect((await control(app, 'resetState', { url: '/__control/reset?keepSessions=true' })).body).toMatchObject({ sessions: 1 });
    expect((await me(sid)).statusCode).toBe(200);
  });
});
