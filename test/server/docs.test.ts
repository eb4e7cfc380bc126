import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { bundle } from '@apidevtools/json-schema-ref-parser';
import SwaggerParser from '@apidevtools/swagger-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildFake, type FakeApp } from '../../src/server/build.js';
import { controlApiPath, monitoringApiPath } from '../../src/spec/index.js';
import { USERS, spec } from './helpers.js';

let app: FakeApp;
beforeAll(async () => {
  app = await buildFake({ spec, records: 20 });
});
afterAll(() => app.close());

const INSPECTOR_LINK_TEXT = '\n\n**This fake** lists every request it answered, live, with what was wrong with refused ones: [the request inspector](/__inspector).';
type Parameter = { name: string; in: string; required?: boolean; example?: unknown; examples?: unknown; description?: string; schema?: Record<string, unknown> };
type Written = { info: { description: string }; servers: unknown; paths: Record<string, Record<string, { parameters?: Parameter[] }>> } & Record<string, unknown>;
const written = parse(readFileSync(monitoringApiPath, 'utf8')) as Written;

/** A local $ref followed to what it names. */
function resolve<T>(document: unknown, value: T): T {
  let current: unknown = value;
  while (current && typeof (current as { $ref?: unknown }).$ref === 'string') {
    current = ((current as { $ref: string }).$ref.slice(2).split('/') as string[]).reduce<any>((node, key) => node?.[key], document);
  }
  return current as T;
}

/**
 * Swagger UI fills a parameter with its example (or its schema's): of the optional
 * parameters, only `limit` keeps one, and the others show theirs in their description.
 */
function expectOnlyLimitFilled(served: Written, original: Written): void {
  let moved = 0;
  for (const [path, item] of Object.entries(original.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      for (const [i, given] of (operation.parameters ?? []).entries()) {
        const before = resolve(original, given);
        const after = resolve(served, served.paths[path]?.[method]?.parameters?.[i] as Parameter);
        expect(after.name).toBe(before.name);
        const example = before.example ?? resolve(original, before.schema)?.example;
        if (before.required || before.name === 'limit') {
          expect(after.example ?? resolve(served, after.schema)?.example, `${method} ${path} ${before.name}`).toEqual(example);
          continue;
        }
        expect(after.example, `${method} ${path} ${before.name}`).toBeUndefined();
        expect(after.examples).toBeUndefined();
        expect(resolve(served, after.schema)?.example, `${method} ${path} ${before.name}`).toBeUndefined();
        if (example !== undefined) {
          moved++;
          expect(after.description, `${method} ${path} ${before.name}`).toContain(`Example: \`${typeof example === 'string' ? example : JSON.stringify(example)}\``);
        }
      }
    }
  }
  expect(moved).toBeGreaterThan(0);
}

describe('the docs page', () => {
  it('GET /docs is an HTML page of Swagger UI', async () => {
    const response = await app.inject({ url: '/docs' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toContain('<div id="swagger-ui">');
  });

  it('serves the document as written, with its server pointed at the fake, its seeded logins, and only `limit` to fill in', async () => {
    const response = await app.inject({ url: '/docs/json', headers: { host: '127.0.0.1:41234' } });
    expect(response.statusCode).toBe(200);
    const served = JSON.parse(response.body) as Written;
    expect(served.servers).toEqual([{ url: 'http://127.0.0.1:41234', description: expect.any(String) }]);
    // Besides the server, only the description (logins added) and the parameters' examples differ.
    expect({ ...served, servers: written.servers, info: { ...served.info, description: written.info.description } }).toEqual({ ...written, paths: served.paths });
    expect(served.info.description.startsWith(`${written.info.description}${INSPECTOR_LINK_TEXT}`)).toBe(true);
    for (const user of Object.values(USERS)) expect(served.info.description).toMatch(new RegExp(`\\| \`${user.login}\` \\| \`${user.password}\` \\|`));
    expectOnlyLimitFilled(served, written);
    // Still a valid OpenAPI document.
    await SwaggerParser.validate(structuredClone(served) as never);
  });

  it('shows the seeded passwords only to loopback clients that name this server', async () => {
    for (const request of [
      { remoteAddress: '203.0.113.9', headers: { host: '127.0.0.1:4010' } },
      // Names the API answers that do not name this server.
      { headers: { host: 'app.localhost:4010' } },
      { headers: { host: '192.0.2.7:4010' } },
    ]) {
      const description = (JSON.parse((await app.inject({ url: '/docs/json', ...request })).body) as Written).info.description;
      expect(description).toContain('Their passwords are shown to loopback clients only.');
      for (const user of Object.values(USERS)) {
        expect(description).toContain(`| \`${user.login}\` |`);
        expect(description).not.toContain(user.password);
        expect(description).not.toContain(Buffer.from(`${user.login}:${user.password}`).toString('base64'));
      }
    }
    // A DNS-rebinding page gets no docs at all (test/server/host-beyond-the-api.test.ts).
    const rebound = await app.inject({ url: '/docs/json', headers: { host: 'rebound.example:4010' } });
    expect(rebound.statusCode).toBe(403);
    for (const user of Object.values(USERS)) expect(rebound.body).not.toContain(user.login);
  });

  it('serves the control API document too, bundled into one file', async () => {
    const response = await app.inject({ url: '/docs/control/json', headers: { host: 'localhost:4010' } });
    const served = JSON.parse(response.body) as { paths: Record<string, unknown>; servers: { url: string }[] };
    const controlWritten = parse(readFileSync(controlApiPath, 'utf8')) as { paths: Record<string, unknown> };
    expect(Object.keys(served.paths)).toEqual(Object.keys(controlWritten.paths));
    expect(served.servers[0]?.url).toBe('http://localhost:4010');
    expectOnlyLimitFilled(served as unknown as Written, (await bundle(controlApiPath)) as unknown as Written);
    expect(response.body).not.toContain('monitoring-api.yaml#');
    expect((await app.inject({ url: '/docs/control' })).headers['content-type']).toMatch(/^text\/html/);
  });

  it('loads every script and style from the fake itself: no CDN, no online validator', async () => {
    const html = (await app.inject({ url: '/docs' })).body;
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1] ?? '');
    expect(assets.length).toBeGreaterThan(3);
    for (const asset of assets) {
      expect(asset, asset).not.toMatch(/^(https?:)?\/\//);
      const url = new URL(asset, 'http://127.0.0.1/docs/').pathname;
      expect((await app.inject({ url })).statusCode, url).toBe(200);
    }
    const initializer = (await app.inject({ url: '/docs/static/swagger-initializer.js' })).body;
    expect(initializer).toMatch(/validatorUrl: null/);
    // Outside comments, no absolute URL: the UI fetches ./json from the fake.
    expect(initializer.replace(/\/\/ .*$/gm, '')).not.toMatch(/https?:\/\//);
  });

  it('answers an unknown docs path with the API\'s 404 error', async () => {
    const response = await app.inject({ url: '/docs/no-such-page' });
    expect(response.statusCode).toBe(404);
    expect(JSON.parse(response.body)).toMatchObject({ status: 404, code: 'ROUTE_NOT_FOUND' });
  });

  it('no page of any site may frame a docs page or asset: helmet\'s CSP with frame-ancestors \'none\' and X-Frame-Options DENY', async () => {
    for (const url of ['/docs', '/docs/control', '/docs/json', '/docs/static/swagger-ui.css']) {
      const response = await app.inject({ url });
      expect(response.statusCode, url).toBe(200);
      expect(response.headers['content-security-policy'], url).toMatch(/(^|;)\s*frame-ancestors 'none'/);
      expect(response.headers['content-security-policy'], url).toMatch(/(^|;)\s*script-src 'self'/);
      expect(response.headers['x-frame-options'], url).toBe('DENY');
    }
  });

  it('answers a path with dot segments out of the static folder, as sent on the wire, with the API\'s 404', async () => {
    const listening = await buildFake({ spec, records: 20 });
    await listening.listen({ port: 0, host: '127.0.0.1' });
    const { port } = listening.server.address() as { port: number };
    try {
      for (const path of ['/docs/static/../..', '/docs/static/../../package.json', '/docs/static/%2e%2e/%2e%2e']) {
        const { status, body } = await new Promise<{ status: number; body: string }>((resolve, reject) => {
          const request = httpRequest({ host: '127.0.0.1', port, path }, (response) => {
            let text = '';
            response.on('data', (chunk: Buffer) => (text += chunk.toString()));
            response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
          });
          request.on('error', reject).end();
        });
        expect(status, path).toBe(404);
        expect(JSON.parse(body), path).toEqual({ status: 404, code: 'ROUTE_NOT_FOUND', message: expect.stringMatching(/^No operation has the path "\/docs\/static\/\.\.\/\.\./) });
      }
    } finally {
      await listening.close();
    }
  });

  it('is not served when docs are off', async () => {
    const bare = await buildFake({ spec, docs: false, records: 20 });
    expect((await bare.inject({ url: '/docs' })).statusCode).toBe(404);
    await bare.close();
  });
});
