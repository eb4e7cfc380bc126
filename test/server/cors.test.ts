import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFake, type FakeApp } from '../../src/server/build.js';
import { API, cookieValue, expectConforms, expectError, spec } from './helpers.js';

let app: FakeApp;
let listed: FakeApp;
beforeAll(async () => {
  app = await buildFake({ spec, docs: false, records: 20 });
  listed = await buildFake({ spec, docs: false, records: 20, corsOrigins: ['https://ui.example.test', 'http://localhost:3000'] });
});
afterAll(async () => {
  await app.close();
  await listed.close();
});

const preflight = (target: FakeApp, origin: string, method = 'PATCH', headers = 'content-type,x-csrf-token') =>
  target.inject({
    method: 'OPTIONS',
    url: `${API}/event-log/5867948233835d9661c56dc8/payload`,
    headers: { origin, 'access-control-request-method': method, 'access-control-request-headers': headers },
  });

describe('CORS for a frontend on another port', () => {
  it.each(['http://localhost:5173', 'http://127.0.0.1:8080', 'http://localhost', 'http://[::1]:4200'])(
    'answers the preflight of %s with its origin, credentials, and the headers the API reads',
    async (origin) => {
      const response = await preflight(app, origin);
      expect(response.statusCode).toBe(204);
      expect(response.headers['access-control-allow-origin']).toBe(origin);
      expect(response.headers['access-control-allow-credentials']).toBe('true');
      expect(String(response.headers['access-control-allow-methods']).split(/, */)).toEqual(expect.arrayContaining(['GET', 'POST', 'PATCH', 'DELETE']));
      const allowed = String(response.headers['access-control-allow-headers']).toLowerCase().split(/, */);
      expect(allowed).toEqual(expect.arrayContaining(['content-type', 'x-csrf-token', 'authorization']));
      expect(String(response.headers.vary)).toMatch(/origin/i);
    },
  );

  it.each(['https://localhost:5173', 'http://evil.example', 'http://localhost.evil.example:80', 'null'])('gives %s no CORS headers', async (origin) => {
    const response = await preflight(app, origin);
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
    expect(response.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('lets a credentialed log-in from a page on another port set its cookies, and the session work from there', async () => {
    const origin = 'http://localhost:5173';
    const login = await app.inject({ method: 'POST', url: `${API}/users/session`, headers: { origin }, payload: { login: 'viewer', password: 'viewer-password' } });
    expectConforms('createSession', login);
    expect(login.headers['access-control-allow-origin']).toBe(origin);
    expect(login.headers['access-control-allow-credentials']).toBe('true');
    // SameSite=Lax: sent by the browser to another port of the same host (the same site).
    expect(login.headers['set-cookie']).toEqual(expect.arrayContaining([expect.stringMatching(/^sid=.*; SameSite=Lax$/)]));
    const me = await app.inject({ url: `${API}/users/current`, headers: { origin }, cookies: { sid: cookieValue(login, 'sid') } });
    expectConforms('getCurrentUser', me);
    expect(JSON.parse(me.body).login).toBe('viewer');
    expect(me.headers['access-control-allow-origin']).toBe(origin);
    expect(me.headers['access-control-allow-credentials']).toBe('true');
  });

  it('lets the page read Retry-After and Allow of error answers', async () => {
    const response = await app.inject({ url: `${API}/users/current`, headers: { origin: 'http://localhost:5173' } });
    expect(response.statusCode).toBe(401);
    expect(String(response.headers['access-control-expose-headers']).toLowerCase()).toContain('retry-after');
  });

  it('an allow-list replaces the default', async () => {
    expect((await preflight(listed, 'https://ui.example.test')).headers['access-control-allow-origin']).toBe('https://ui.example.test');
    expect((await preflight(listed, 'http://localhost:3000')).headers['access-control-allow-origin']).toBe('http://localhost:3000');
    expect((await preflight(listed, 'http://localhost:5173')).headers['access-control-allow-origin']).toBeUndefined();
  });

  it('an OPTIONS request that is no preflight gets 405 with Allow on a documented path', async () => {
    const response = await app.inject({ method: 'OPTIONS', url: `${API}/users/current` });
    expect(response.statusCode).toBe(405);
    expect(JSON.parse(response.body)).toMatchObject({ code: 'METHOD_NOT_ALLOWED' });
    expect(response.headers.allow).toBe('GET');
  });

  it('an OPTIONS request from an allowed origin that is no preflight (no Access-Control-Request-Method) gets the same 405, in the document\'s shape', async () => {
    const response = await app.inject({ method: 'OPTIONS', url: `${API}/users/current`, headers: { origin: 'http://localhost:3000' } });
    expectError(response, 405, 'METHOD_NOT_ALLOWED');
    expect(response.headers['access-control-allow-origin']).toBe('http://localhost:3000');
    expect(response.headers['access-control-allow-methods']).toBeUndefined();
  });

  it('keeps a preflight out of the request journal: the page did not make that call, its browser did', async () => {
    const before = app.fake.journal.list().length;
    expect((await preflight(app, 'http://localhost:5173')).statusCode).toBe(204);
    expect(app.fake.journal.list()).toHaveLength(before);
  });
});
