import type { InjectOptions } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { buildFake, type FakeApp } from '../../src/server/build.js';
import { errorCatalog } from '../../src/spec/index.js';
import { rawRequest, type RawAnswer } from '../helpers/raw-http.js';
import { API, spec, validator } from './helpers.js';

// DNS rebinding beyond the API's operations: the docs (pages, assets, documents) and CORS
// preflights answer only the Hosts the monitoring API answers, with its 403.

const apps: FakeApp[] = [];
afterAll(() => Promise.all(apps.map((app) => app.close())));
async function fake(options: Parameters<typeof buildFake>[0] = {}): Promise<FakeApp> {
  const app = await buildFake({ spec, records: 5, ...options });
  apps.push(app);
  return app;
}
const app = await fake();

const refusal = errorCatalog(spec.document).get('PERMISSION_DENIED')!;
/** The document's message for a Host that names no allowed host (`x-messages` of PERMISSION_DENIED). */
const notAllowed = (host: string, name: string) => refusal.messages.hostNotAllowed!.replace('{host}', JSON.stringify(host)).replace('{name}', name);

/** An answer of inject or of a real request. */
type Answer = Pick<RawAnswer, 'statusCode' | 'body'> & { readonly headers: Readonly<Record<string, unknown>> };

/** The answer is the document's Error body: 403 PERMISSION_DENIED with its message for this Host, and no CORS headers. */
function expectRefused(answer: Answer, host: string, name: string, what: string): void {
  expect(answer.statusCode, `${what}: ${answer.body}`).toBe(refusal.status);
  expect(answer.headers['content-type'], what).toMatch(/^application\/json/);
  const body = JSON.parse(answer.body) as Record<string, unknown>;
  expect(validator.validateNamed('Error', body), what).toEqual([]);
  expect(body, what).toEqual({ status: refusal.status, code: 'PERMISSION_DENIED', message: notAllowed(host, name) });
  expect(answer.headers['access-control-allow-origin'], what).toBeUndefined();
}

const PAGE = 'http://localhost:5173';
const preflight = (url: string, host: string): InjectOptions => ({
  method: 'OPTIONS',
  url,
  headers: { host, origin: PAGE, 'access-control-request-method': 'PATCH', 'access-control-request-headers': 'content-type' },
});

// Paths the docs routes take, as written and percent-escaped (the router decodes them).
const DOCS_PATHS = ['/docs', '/docs/', '/docs/json', '/docs/static/swagger-initializer.js', '/docs/control', '/docs/control/json', '/%64ocs', '/d%6Fcs/control', '/%64ocs/static/swagger-initializer.js'];
const PREFLIGHT_PATHS = [`${API}/event-log/5867948233835d9661c56dc8/payload`, `${API}/users/current`, '/node/%61pi/users/current', '/docs', '/no-such-path'];

describe('a Host the monitoring API refuses', () => {
  it('gets its 403 from the docs pages, their assets and documents, however the path is spelled', async () => {
    for (const host of ['evil.example', 'localhost.evil.example:4010']) {
      const name = host.split(':')[0]!;
      for (const url of DOCS_PATHS) expectRefused(await app.inject({ url, headers: { host } }), host, name, `${host} ${url}`);
    }
  });

  it('gets its 403 on a CORS preflight from an allowed page, on any path, instead of the CORS headers', async () => {
    const host = 'evil.example:4010';
    for (const url of PREFLIGHT_PATHS) expectRefused(await app.inject(preflight(url, host)), host, 'evil.example', url);
    // The control API's paths get its own rule, a preflight too.
    const control = await app.inject(preflight('/__control/config', host));
    expect([control.statusCode, JSON.parse(control.body).message, control.headers['access-control-allow-origin']]).toEqual([403, 'The control API answers only requests whose Host names this server.', undefined]);
    // Even where no page origin is allowed at all (the plugin would not answer it).
    expectRefused(await app.inject({ ...preflight('/docs', host), headers: { host, origin: 'http://evil.example:4010', 'access-control-request-method': 'GET' } }), host, 'evil.example', 'foreign origin');
  });

  it('gets its 403 on a path no route takes, so a spelling that misses the docs route learns nothing either', async () => {
    for (const url of ['//docs', '/docs//../x', '/', '/favicon.ico', '/no-such-path']) {
      expectRefused(await app.inject({ url, headers: { host: 'evil.example' } }), 'evil.example', 'evil.example', url);
    }
  });

  it('over HTTP, where paths reach the router as sent (dot segments, double slashes, escapes)', async () => {
    const target = await fake();
    const origin = await target.listen({ port: 0, host: '127.0.0.1' });
    const host = `attacker.example:${new URL(origin).port}`;
    for (const path of ['/docs', '/%64ocs', '//docs', '/docs/../node/api/users/current', '/docs/%2e%2e/node/api/users/current', '/docs/./json', '/docs/control/../json']) {
      expectRefused(await rawRequest(origin, { path, headers: { host } }), host, 'attacker.example', path);
    }
    for (const path of PREFLIGHT_PATHS) {
      const { headers } = preflight(path, host);
      expectRefused(await rawRequest(origin, { method: 'OPTIONS', path, headers: headers as Record<string, string> }), host, 'attacker.example', `OPTIONS ${path}`);
    }
    // Its own name still gets the page and the preflight.
    const own = `127.0.0.1:${new URL(origin).port}`;
    expect((await rawRequest(origin, { path: '/docs', headers: { host: own } })).statusCode).toBe(200);
    const { headers } = preflight(PREFLIGHT_PATHS[0]!, own);
    const allowed = await rawRequest(origin, { method: 'OPTIONS', path: PREFLIGHT_PATHS[0]!, headers: headers as Record<string, string> });
    expect(allowed.statusCode).toBe(204);
    expect(allowed.headers['access-control-allow-origin']).toBe(PAGE);
  });
});

describe('a Host the monitoring API answers', () => {
  const ANSWERED = ['localhost', 'localhost:4010', '127.0.0.1:4010', '[::1]:4010', '192.168.1.20', 'app.localhost:5173'];

  it('gets the docs as before', async () => {
    for (const host of ANSWERED) {
      const page = await app.inject({ url: '/docs', headers: { host } });
      expect(page.statusCode, host).toBe(200);
      expect(page.headers['content-type'], host).toMatch(/^text\/html/);
      expect((await app.inject({ url: '/%64ocs/static/swagger-initializer.js', headers: { host } })).statusCode, host).toBe(200);
      const document = await app.inject({ url: '/docs/control/json', headers: { host } });
      expect(JSON.parse(document.body).openapi, host).toMatch(/^3\.1/);
    }
    // A path under /docs that is no page is still the API's 404.
    expect(JSON.parse((await app.inject({ url: '/docs/no-such-page', headers: { host: 'localhost' } })).body).code).toBe('ROUTE_NOT_FOUND');
  });

  it('gets the preflight answer as before: 204, the page origin, credentials, methods and headers', async () => {
    for (const host of ANSWERED) {
      const answer = await app.inject(preflight(PREFLIGHT_PATHS[0]!, host));
      expect(answer.statusCode, host).toBe(204);
      expect(answer.headers['access-control-allow-origin'], host).toBe(PAGE);
      expect(answer.headers['access-control-allow-credentials'], host).toBe('true');
      expect(String(answer.headers['access-control-allow-methods']).split(/, */), host).toContain('PATCH');
      expect(String(answer.headers['access-control-allow-headers']).toLowerCase(), host).toContain('content-type');
      expect(answer.headers['content-length'], host).toBe('0');
    }
  });

  it('with --allowed-host and --control-host names, and any Host with --allowed-host *', async () => {
    const named = await fake({ controlHosts: ['fake.test'], allowedHosts: ['.corp.test'] });
    for (const host of ['fake.test:4010', 'ui.corp.test']) {
      expect((await named.inject({ url: '/docs', headers: { host } })).statusCode, host).toBe(200);
      expect((await named.inject(preflight('/docs', host))).statusCode, host).toBe(204);
    }
    expectRefused(await named.inject({ url: '/docs', headers: { host: 'sub.fake.test' } }), 'sub.fake.test', 'sub.fake.test', 'not a subdomain rule');
    const any = await fake({ docs: false, allowedHosts: ['*'] });
    expect((await any.inject(preflight('/docs', 'evil.example'))).statusCode).toBe(204);
  });
});
