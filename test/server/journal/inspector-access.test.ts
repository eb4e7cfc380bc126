import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFake, type Fake } from '../../../src/fake/create-fake.js';
import { rawRequest } from '../../helpers/raw-http.js';
import { API, basicOf, expectError, spec } from '../helpers.js';
import { encodedVariants } from '../control/hostile-calls.js';

const INSPECTOR = '/__inspector';
const WRONG_ORIGIN = 'The control API does not answer pages of this origin.';
const WRONG_HOST = 'The control API answers only requests whose Host names this server.';
const NOT_LOOPBACK = 'The control API answers loopback clients only.';

let fake: Fake;
let origin = '';
let port = '';
beforeAll(async () => {
  fake = await createFake({ spec, docs: false, records: 20 });
  origin = (await fake.listen()).origin;
  port = new URL(origin).port;
});
afterAll(() => fake.close());

const refusal = (body: string) => JSON.parse(body) as { status: number; code: string; message: string };

describe('the inspector page (/__inspector)', () => {
  it('is one self-contained page: inline code allowed by hash only, requests to the fake only, no framing', async () => {
    const answer = await rawRequest(origin, { path: INSPECTOR });
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('text/html; charset=utf-8');
    const csp = String(answer.headers['content-security-policy']);
    expect(csp).toMatch(/^default-src 'none'; script-src 'sha256-[^']+'; style-src 'sha256-[^']+'; connect-src 'self';/);
    expect(csp).not.toContain('unsafe');
    expect(csp).toContain("frame-ancestors 'none'");
    // Nothing is loaded from anywhere: no src or href at all, and no absolute URL.
    expect(answer.body).not.toMatch(/\s(?:src|href)=/);
    expect(answer.body).not.toMatch(/https?:\/\//);
  });

  it('is taken by the router however the path is spelled, and every spelling is guarded like the control API', async () => {
    const spellings = encodedVariants(INSPECTOR);
    expect(spellings.length).toBeGreaterThan(10);
    for (const path of spellings) {
      expect((await rawRequest(origin, { path })).statusCode, path).toBe(200);
      const foreignPage = await rawRequest(origin, { path, headers: { origin: 'https://evil.example' } });
      expect([path, foreignPage.statusCode, refusal(foreignPage.body).message]).toEqual([path, 403, WRONG_ORIGIN]);
      const rebound = await rawRequest(origin, { path, headers: { host: `evil.example:${port}`, origin: `http://evil.example:${port}` } });
      expect([path, rebound.statusCode, refusal(rebound.body).message]).toEqual([path, 403, WRONG_HOST]);
      const remote = await fake.inject({ url: path, remoteAddress: '192.0.2.10' });
      expect([path, remote.statusCode, refusal(remote.body).message]).toEqual([path, 403, NOT_LOOPBACK]);
    }
  });

  it('accepts its own origin and the allowed pages, and refuses unknown paths under it to outsiders before saying 404', async () => {
    for (const allowed of [origin, 'http://localhost:5173']) expect((await rawRequest(origin, { path: INSPECTOR, headers: { origin: allowed } })).statusCode).toBe(200);
    expectError(await fake.inject({ url: `${INSPECTOR}/x`, remoteAddress: '192.0.2.10' }), 403, 'PERMISSION_DENIED');
    expectError(await fake.inject({ url: `${INSPECTOR}/x` }), 404, 'ROUTE_NOT_FOUND');
  });

  it('is not itself in the journal, and a foreign page can neither read nor clear the journal', async () => {
    await fake.clearRequests();
    await fake.inject({ url: `${API}/users/current`, headers: basicOf('viewer') });
    await rawRequest(origin, { path: INSPECTOR });
    for (const method of ['GET', 'DELETE']) {
      const answer = await rawRequest(origin, { method, path: '/__control/request%73', headers: { origin: 'https://evil.example' } });
      expect(answer.statusCode).toBe(403);
    }
    expect((await fake.requests()).map((r) => r.operationId)).toEqual(['getCurrentUser']);
  });
});
