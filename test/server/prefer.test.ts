import { afterEach, describe, expect, it } from 'vitest';
import type { FakeApp } from '../../src/server/build.js';
import { fakeRecordingWaits } from './recorded-waits.js';
import type { FakeOptions } from '../../src/server/options.js';
import type { ApiErrorBody } from '../../src/spec/types.js';
import { API, basicOf, expectConforms, expectError, spec } from './helpers.js';
import { control } from './control/helpers.js';

let app: FakeApp | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** A fake whose waits are recorded; closed after each test. */
async function fake(options: FakeOptions = {}) {
  const made = await fakeRecordingWaits(options);
  app = made.app;
  return made;
}

const eventLog = (target: FakeApp, prefer: string, headers: Record<string, string> = {}, remoteAddress?: string) =>
  target.inject({ url: `${API}/event-log?limit=1`, headers: { ...basicOf('viewer'), prefer, ...headers }, ...(remoteAddress ? { remoteAddress } : {}) });

describe('the Prefer header', () => {
  it('code=503 answers 503 with the Error body of INJECTED_FAULT, before authentication, changing nothing', async () => {
    const { app: target } = await fake();
    const answer = await target.inject({ url: `${API}/users/current`, headers: { prefer: 'code=503' } });
    expect(expectError(answer, 503, 'INJECTED_FAULT')).toEqual({ status: 503, code: 'INJECTED_FAULT', message: 'Answered with this status, as the Prefer header asked.' });
    const logIn = await target.inject({ method: 'POST', url: `${API}/users/session`, headers: { prefer: 'code=503' }, payload: { login: 'admin', password: 'admin-password' } });
    expect(logIn.statusCode).toBe(503);
    expect((await control<unknown[]>(target, 'listSessions')).body).toEqual([]);
  });

  it('a status the operation documents is answered with the document\'s Error body for it', async () => {
    const { app: target } = await fake();
    for (const [operationId, url, status] of [
      ['getCurrentUser', `${API}/users/current`, 401],
      ['getEventLog', `${API}/event-log`, 429],
      ['getLimitBlockLog', `${API}/limit-block-log`, 403],
      ['getEventLog', `${API}/event-log`, 400],
    ] as const) {
      const answer = await target.inject({ url, headers: { ...basicOf('admin'), prefer: `code=${status}` } });
      expect(answer.statusCode, `${operationId} ${status}`).toBe(status);
      expectConforms(operationId, answer);
      const example = spec.operation(operationId).responses[String(status)]?.content?.['application/json'];
      const documented = example?.example ?? (Object.values(example?.examples ?? {})[0] as { value: unknown }).value;
      expect(JSON.parse(answer.body)).toEqual(documented);
    }
  });

  it("answers the headers the document gives the status, from their examples: a 429's Retry-After", async () => {
    const { app: target } = await fake();
    const answer = await eventLog(target, 'code=429');
    expectConforms('getEventLog', answer);
    const documented = spec.operation('getEventLog').responses['429']?.headers?.['Retry-After'] as { example?: unknown } | undefined;
    expect(documented?.example).toBe(60);
    expect(answer.headers['retry-after']).toBe('60');
    expect(JSON.parse(answer.body).message).toBe('Too many requests; blocked for 60 seconds.');
  });

  it('refuses a code the operation does not document, and a bad value, with 400 INVALID_PARAMETER naming the header', async () => {
    const { app: target } = await fake();
    for (const prefer of ['code=404', 'code=200', 'code=abc', 'code=5030', 'code=', 'latency=60001', 'latency=1e9', 'latency=-1', `latency=${'9'.repeat(5000)}`]) {
      const answer = await eventLog(target, prefer);
      expect(answer.statusCode, prefer.slice(0, 40)).toBe(400);
      expectConforms('getEventLog', answer);
      const body = JSON.parse(answer.body) as ApiErrorBody;
      expect(body.code).toBe('INVALID_PARAMETER');
      expect(body.details).toEqual([{ location: 'header', name: 'prefer', problem: expect.any(String) }]);
      expect(body.message.length).toBeLessThan(300);
    }
    expect(JSON.parse((await eventLog(target, 'code=404')).body).message).toBe('header "prefer" code must be an error status getEventLog documents (400, 401, 403, 429, 503), not "404"');
    // An operation without a documented 400 still gets the same clear refusal.
    expectError(await target.inject({ url: `${API}/users/current`, headers: { prefer: 'code=418' } }), 400, 'INVALID_PARAMETER');
  });

  it('latency=<ms> delays that one answer in place of the configured latency', async () => {
    const { app: target, waits } = await fake({ latencyMs: 5 });
    expectConforms('getEventLog', await eventLog(target, 'latency=2000'));
    expectConforms('getEventLog', await eventLog(target, 'return=minimal'));
    const both = await eventLog(target, 'code=503, latency=700');
    expect(both.statusCode).toBe(503);
    expectConforms('getEventLog', await eventLog(target, 'latency=0'));
    expect(waits).toEqual([2000, 5, 700]);
  });

  it('reads RFC 7240 syntax: several preferences, parameters, quotes, case; ignores unknown ones and giant lists in time', async () => {
    const { app: target } = await fake();
    expect((await eventLog(target, 'respond-async, wait=5')).statusCode).toBe(200);
    expect((await eventLog(target, 'respond-async; foo=bar, CODE="401"; x=y')).statusCode).toBe(401);
    expect((await eventLog(target, 'code=401, code=429')).statusCode).toBe(401);
    const giant = await eventLog(target, `${'x=1,'.repeat(2500)}code=429`);
    expect(giant.statusCode).toBe(429);
    expectConforms('getEventLog', giant);
  });

  it('is heard only from those the control API answers (loopback clients naming this server, pages of allowed origins); else ignored', async () => {
    const { app: target } = await fake();
    const fromAfar = await eventLog(target, 'code=503', {}, '203.0.113.5');
    expect(fromAfar.statusCode).toBe(200);
    expectConforms('getEventLog', fromAfar);
    // A name the API answers that does not name this server.
    expect((await eventLog(target, 'code=503', { host: 'app.localhost:4010' })).statusCode).toBe(200);
    expect((await eventLog(target, 'code=503', { host: '127.0.0.1:4010' })).statusCode).toBe(503);
    expect((await eventLog(target, 'code=503', { origin: 'http://evil.example' })).statusCode).toBe(200);
    expect((await eventLog(target, 'code=503', { origin: 'https://localhost:5173' })).statusCode).toBe(200);
    const allowed = await eventLog(target, 'code=503', { origin: 'http://localhost:5173' });
    expect(allowed.statusCode).toBe(503);
    expect(allowed.headers['access-control-allow-origin']).toBe('http://localhost:5173');
  });

  it('is ignored when switched off, and by the control API', async () => {
    const { app: strict } = await fake({ honourPrefer: false });
    expect((await eventLog(strict, 'code=503')).statusCode).toBe(200);
    expect((await eventLog(strict, 'code=404')).statusCode).toBe(200);
    const config = await strict.inject({ url: '/__control/config', headers: { prefer: 'code=503' } });
    expect(config.statusCode).toBe(200);
  });

  it('is allowed by CORS for allowed origins only', async () => {
    const { app: target } = await fake();
    const preflight = (origin: string) =>
      target.inject({ method: 'OPTIONS', url: `${API}/event-log`, headers: { origin, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization,prefer' } });
    const ok = await preflight('http://localhost:5173');
    expect(ok.statusCode).toBe(204);
    expect(String(ok.headers['access-control-allow-headers']).toLowerCase().split(/, */)).toContain('prefer');
    expect((await preflight('http://evil.example')).headers['access-control-allow-origin']).toBeUndefined();
  });

  it('wins over an injected fault, which stays for a later call', async () => {
    const { app: target } = await fake();
    await control(target, 'injectFault', { payload: { operationId: 'getEventLog', count: 1, status: 500 } });
    expect((await eventLog(target, 'code=401')).statusCode).toBe(401);
    expect((await eventLog(target, 'latency=1')).statusCode).toBe(500);
  });
});
