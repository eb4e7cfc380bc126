import { afterEach, describe, expect, it } from 'vitest';
import type { FakeApp } from '../../../src/server/build.js';
import { fakeRecordingWaits } from '../recorded-waits.js';
import type { FakeOptions } from '../../../src/server/options.js';
import type { ControlConfig, Fault } from '../../../src/spec/control-types.js';
import type { ApiErrorBody } from '../../../src/spec/types.js';
import { rawRequest } from '../../helpers/raw-http.js';
import { API, basicOf, expectConforms, validator } from '../helpers.js';
import { control } from './helpers.js';

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

const whoAmI = (target: FakeApp) => target.inject({ url: `${API}/users/current`, headers: basicOf('admin') });
const eventLog = (target: FakeApp) => target.inject({ url: `${API}/event-log?limit=1`, headers: basicOf('admin') });
const logIn = (target: FakeApp) => target.inject({ method: 'POST', url: `${API}/users/session`, payload: { login: 'admin', password: 'admin-password' } });

describe('latency per operation', () => {
  it('delays each operation by its own latency, fixed or drawn from [min, max] by the seed; others keep the global one', async () => {
    const draws = async (seed: number) => {
      const { app: target, waits } = await fake({ seed, latencyMs: 7 });
      const { status, body } = await control<ControlConfig>(target, 'updateConfig', { payload: { operationLatencyMs: { getEventLog: [100, 200], getCurrentUser: 50 } } });
      expect(status).toBe(200);
      expect(body).toMatchObject({ latencyMs: 7, operationLatencyMs: { getEventLog: [100, 200], getCurrentUser: 50 } });
      waits.length = 0;
      for (let i = 0; i < 20; i++) expectConforms('getEventLog', await eventLog(target));
      const logDraws = waits.splice(0);
      expectConforms('getCurrentUser', await whoAmI(target));
      expectConforms('createSession', await logIn(target));
      await control(target, 'getConfig');
      expect(waits).toEqual([50, 7]); // the control call is never delayed
      await target.close();
      return logDraws;
    };
    const first = await draws(3);
    expect(first).toHaveLength(20);
    for (const ms of first) expect(ms >= 100 && ms <= 200 && Number.isInteger(ms)).toBe(true);
    expect(new Set(first).size).toBeGreaterThan(5);
    expect(await draws(3)).toEqual(first);
    expect(await draws(4)).not.toEqual(first);
  });

  it('delays the API paths no route takes by the global latency, never the fake’s own paths', async () => {
    const { app: target, waits } = await fake({ latencyMs: 9 });
    const unrouted = await target.inject({ url: `${API}/nowhere`, headers: basicOf('admin') });
    expect(unrouted.statusCode).toBe(404);
    expect(waits).toEqual([9]);
    await target.inject({ url: '/elsewhere' });
    await control(target, 'getConfig');
    expect(waits).toEqual([9]);
  });

  it('an update replaces the whole map; reset goes back to none', async () => {
    const { app: target, waits } = await fake();
    await control(target, 'updateConfig', { payload: { operationLatencyMs: { getEventLog: 30 } } });
    await control(target, 'updateConfig', { payload: { operationLatencyMs: { getCurrentUser: [5, 5] } } });
    await eventLog(target);
    await whoAmI(target);
    expect(waits).toEqual([5]);
    await control(target, 'resetState');
    expect((await control<ControlConfig>(target, 'getConfig')).body.operationLatencyMs).toEqual({});
  });

  it('refuses hostile or wrong latencies with 400 naming the field, changing nothing', async () => {
    const { app: target } = await fake();
    const before = (await control<ControlConfig>(target, 'getConfig')).body;
    const cases: [unknown, string][] = [
      [{ getEventLog: [300, 100] }, '/operationLatencyMs/getEventLog'],
      [{ getEventLog: 60_001 }, '/operationLatencyMs/getEventLog'],
      [{ getEventLog: 1e300 }, '/operationLatencyMs/getEventLog'],
      [{ getEventLog: [0, 60_001] }, '/operationLatencyMs/getEventLog/1'],
      [{ getEventLog: [1, 2, 3] }, '/operationLatencyMs/getEventLog'],
      [{ getEventLog: -1 }, '/operationLatencyMs/getEventLog'],
      [{ resetState: 10 }, '/operationLatencyMs/resetState'],
      [{ ['x'.repeat(10_000)]: 10 }, `/operationLatencyMs/${'x'.repeat(40)}…`],
    ];
    for (const [operationLatencyMs, name] of cases) {
      const { status, body } = await control<ApiErrorBody>(target, 'updateConfig', { payload: { operationLatencyMs } });
      expect(status, JSON.stringify(operationLatencyMs).slice(0, 80)).toBe(400);
      expect(body.code).toBe('INVALID_BODY');
      expect(body.details?.map((d) => d.name), JSON.stringify(body)).toContain(name);
    }
    expect((await control<ControlConfig>(target, 'getConfig')).body).toEqual(before);
  });
});

describe('faults beyond a status', () => {
  it('answers a custom Error body with its status, after a delay drawn by the seed', async () => {
    const { app: target, waits } = await fake();
    const body = { status: 429, code: 'RATE_LIMITED', message: 'Too many log-ins; try again in a minute.' };
    const injected = await control<Fault>(target, 'injectFault', { payload: { operationId: 'createSession', count: 2, delayMs: [1000, 3000], body } });
    expect(injected.status).toBe(201);
    expect(injected.body).toMatchObject({ action: 'error', status: 429, message: body.message, body, delayMs: [1000, 3000], remaining: 2 });
    for (let i = 0; i < 2; i++) {
      const answer = await logIn(target);
      expect(answer.statusCode).toBe(429);
      expect(JSON.parse(answer.body)).toEqual(body);
      expect(validator.validateNamed('Error', JSON.parse(answer.body))).toEqual([]);
    }
    expect(waits).toHaveLength(2);
    for (const ms of waits) expect(ms >= 1000 && ms <= 3000).toBe(true);
    const ok = await logIn(target);
    expect(ok.statusCode).toBe(200);
    expectConforms('createSession', ok);
  });

  it('a delay alone keeps the INJECTED_FAULT answer, and the global latency still applies', async () => {
    const { app: target, waits } = await fake({ latencyMs: 3 });
    await control(target, 'injectFault', { payload: { operationId: 'getCurrentUser', count: 1, delayMs: 250, status: 500 } });
    const answer = await whoAmI(target);
    expect(answer.statusCode).toBe(500);
    expect(JSON.parse(answer.body)).toEqual({ status: 500, code: 'INJECTED_FAULT', message: 'Fault injected by the control API.' });
    expect(waits).toEqual([250, 3]);
  });

  it('refuses faults whose fields do not go together, or are out of range, with 400 and nothing injected', async () => {
    const { app: target } = await fake();
    const body = { status: 429, code: 'RATE_LIMITED', message: 'slow down' };
    const cases: [unknown, string][] = [
      [{ operationId: 'getEventLog', count: 1, status: 500, body }, '/status'],
      [{ operationId: 'getEventLog', count: 1, action: 'drop', status: 500 }, '/status'],
      [{ operationId: 'getEventLog', count: 1, action: 'hang', body }, '/body'],
      [{ operationId: 'getEventLog', count: 1, action: 'hang', message: 'm' }, '/message'],
      [{ operationId: 'getEventLog', count: 1, delayMs: [10, 5] }, '/delayMs'],
      [{ operationId: 'getEventLog', count: 1, delayMs: 86_400_000 }, '/delayMs'],
      [{ operationId: 'getEventLog', probability: 1.5 }, '/probability'],
      [{ operationId: 'getEventLog', probability: -0.1 }, '/probability'],
      [{ operationId: 'getEventLog', count: 1, action: 'explode' }, '/action'],
      [{ operationId: 'getEventLog', count: 1, body: { ...body, code: 'NO_SUCH_CODE' } }, '/body/code'],
      [{ operationId: 'getEventLog', count: 1, body: { ...body, extra: 'x'.repeat(1_000_000) } }, '/body/extra'],
      [{ operationId: 'getEventLog', count: 1, body: { ...body, message: 'x'.repeat(1001) } }, '/body/message'],
      [{ operationId: 'getEventLog', count: 1, body: { ...body, details: Array.from({ length: 21 }, () => ({ location: 'body', name: '/', problem: 'p' })) } }, '/body/details'],
    ];
    for (const [payload, name] of cases) {
      const { status, body: error } = await control<ApiErrorBody>(target, 'injectFault', { payload: payload as object });
      expect(status, JSON.stringify(payload).slice(0, 100)).toBe(400);
      expect(error.details?.map((d) => d.name), JSON.stringify(error).slice(0, 300)).toContain(name);
    }
    expect((await control<Fault[]>(target, 'listFaults')).body).toEqual([]);
  });

  it('holds at most 1,000 faults at once, and refuses a snapshot whose ranges are the wrong way round', async () => {
    const { app: target } = await fake();
    for (let i = 0; i < 1000; i++) await target.fake.faults.inject({ operationId: 'getEventLog', count: 1 });
    const refused = await control<ApiErrorBody>(target, 'injectFault', { payload: { operationId: 'getEventLog', count: 1 } });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'INVALID_BODY', message: '1000 faults are in force, the most there may be; clear some first.' });
    expect((await control<{ cleared: number }>(target, 'clearFaults', { method: 'DELETE' })).body.cleared).toBe(1000);

    const snapshot = (await control<Record<string, any>>(target, 'exportSnapshot')).body;
    const backwards = { ...snapshot, config: { ...snapshot.config, operationLatencyMs: { getEventLog: [9, 1] } } };
    const restored = await control<ApiErrorBody>(target, 'importSnapshot', { method: 'PUT', payload: backwards });
    expect(restored.status).toBe(400);
    expect(restored.body.details?.map((d) => d.name)).toEqual(['/config/operationLatencyMs/getEventLog']);
  });

  it('drops the connection: over HTTP the client sees it closed, in-process inject rejects; the next call is answered', async () => {
    const { app: target } = await fake();
    await control(target, 'injectFault', { payload: { operationId: 'getCurrentUser', action: 'drop', count: 2 } });
    await expect(whoAmI(target)).rejects.toThrow(/destroyed/);
    await target.listen({ port: 0, host: '127.0.0.1' });
    const { port } = target.server.address() as { port: number };
    const origin = `http://127.0.0.1:${port}`;
    await expect(rawRequest(origin, { path: `${API}/users/current`, headers: basicOf('admin') })).rejects.toThrow(/socket hang up|ECONNRESET/);
    const answer = await rawRequest(origin, { path: `${API}/users/current`, headers: basicOf('admin') });
    expect(answer.statusCode).toBe(200);
    expectConforms('getCurrentUser', answer as never);
    expect((await control<Fault[]>(target, 'listFaults')).body).toEqual([]);
  });

  it('hangs until the client gives up, and the server closes it at its idle timeout or at shutdown', async () => {
    const { app: target } = await fake({ sleep: undefined, connections: { idleTimeoutMs: 400 } });
    await control(target, 'injectFault', { payload: { operationId: 'getCurrentUser', action: 'hang', probability: 1 } });
    await target.listen({ port: 0, host: '127.0.0.1' });
    const { port } = target.server.address() as { port: number };
    const url = `http://127.0.0.1:${port}${API}/users/current`;
    // The client's own timeout ends it first.
    await expect(fetch(url, { headers: basicOf('admin'), signal: AbortSignal.timeout(100) })).rejects.toThrow(/timeout|aborted/i);
    // Without one, the server's idle timeout closes the connection: no answer ever came.
    await expect(rawRequest(`http://127.0.0.1:${port}`, { path: `${API}/users/current`, headers: basicOf('admin') })).rejects.toThrow(/socket hang up|ECONNRESET/);
    // In-process, the same bound ends it.
    await expect(whoAmI(target)).rejects.toThrow(/destroyed/);
  });

  it('a hanging call does not hold the shutdown up (the idle timeout being 120 s)', async () => {
    const { app: target } = await fake({ sleep: undefined });
    await control(target, 'injectFault', { payload: { operationId: 'getCurrentUser', action: 'hang', count: 2 } });
    await target.listen({ port: 0, host: '127.0.0.1' });
    const { port } = target.server.address() as { port: number };
    const hanging = rawRequest(`http://127.0.0.1:${port}`, { path: `${API}/users/current`, headers: basicOf('admin') }).catch((e: Error) => e);
    const inProcess = whoAmI(target).catch((e: Error) => e);
    while ((await control<Fault[]>(target, 'listFaults')).body.length > 0) await new Promise((resolve) => setTimeout(resolve, 10));
    await target.close();
    expect(await hanging).toBeInstanceOf(Error);
    expect(await inProcess).toBeInstanceOf(Error);
    app = undefined;
  }, 5000);
});
