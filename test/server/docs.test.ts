import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildFake, type FakeApp } from '../../src/server/build.js';
import { controlApiPath, monitoringApiPath } from '../../src/spec/index.js';
import { spec } from './helpers.js';

let app: FakeApp;
beforeAll(async () => {
  app = await buildFake({ spec, records: 20 });
});
afterAll(() => app.close());

const INSPECTOR_LINK_TEXT = '\n\n**This fake** lists every request it answered, live, with what was wrong with refused ones: [the request inspector](/__inspector).';
const written = parse(readFileSync(monitoringApiPath, 'utf8')) as Record<string, unknown>;

describe('the docs page', () => {
  it('GET /docs is an HTML page of Swagger UI', async () => {
    const response = await app.inject({ url: '/docs' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body).toContain('<div id="swagger-ui">');
  });

  it('serves the document as written, with its server pointed at the fake that serves it', async () => {
    const response = await app.inject({ url: '/docs/json', headers: { host: '127.0.0.1:41234' } });
    expect(response.statusCode).toBe(200);
    const served = JSON.parse(response.body) as Record<string, unknown>;
    expect(served.servers).toEqual([{ url: 'http://127.0.0.1:41234', description: expect.any(String) }]);
    const info = served.info as { description: string };
    expect(info.description).toBe(`${(written.info as { description: string }).description}${INSPECTOR_LINK_TEXT}`);
    expect({ ...served, servers: written.servers, info: written.info }).toEqual(written);
  });

  it('serves the control API document too, bundled into one file', async () => {
    const response = await app.inject({ url: '/docs/control/json', headers: { host: 'localhost:4010' } });
    const served = JSON.parse(response.body) as { paths: Record<string, unknown>; servers: { url: string }[] };
    const controlWritten = parse(readFileSync(controlApiPath, 'utf8')) as { paths: Record<string, unknown> };
    expect(Object.keys(served.paths)).toEqual(Object.keys(controlWritten.paths));
    expect(served.servers[0]?.url).toBe('http://localhost:4010');
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

  it('is not served when docs are off', async () => {
    const bare = await buildFake({ spec, docs: false, records: 20 });
    expect((await bare.inject({ url: '/docs' })).statusCode).toBe(404);
    await bare.close();
  });
});
