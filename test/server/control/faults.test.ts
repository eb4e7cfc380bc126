import { afterEach, describe, expect, it } from 'vitest';
import { buildFake, type FakeApp } from '../../../src/server/build.js';
import type { FakeOptions } from '../../../src/server/options.js';
import type { Fault } from '../../../src/spec/control-types.js';
import { API, basicOf, expectConforms, spec, validator } from '../helpers.js';
import { control } from './helpers.js';

let app: FakeApp;
afterEach(() => app?.close());
const fake = async (options: FakeOptions = {}) => (app = await buildFake({ spec, docs: false, records: 20, ...options }));

const whoAmI = () => app.inject({ url: `${API}/users/current`, headers: basicOf('admin') });
const inject = (body: unknown) => control<Fault>(app, 'injectFault', { payload: body as object });

function expectFault(response: Awaited<ReturnType<typeof whoAmI>>, status: number, message: string) {
  expect(response.statusCode).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  const body = JSON.parse(response.body) as unknown;
  expect(validator.validateNamed('Error', body)).toEqual([]);
  expect(body).toEqual({ status, code: 'INJECTED_FAULT', message });
}

describe('error injection', () => {
  it('answers the next `count` calls of the operation with 503 INJECTED_FAULT, then works again', async () => {
    await fake();
    const { status, body: fault } = await inject({ operationId: 'getCurrentUser', count: 2 });
    expect(status).toBe(201);
    expect(fault).toMatchObject({ operationId: 'getCurrentUser', status: 503, message: 'Fault injected by the control API.', remaining: 2, hits: 0 });
    expectFault(await whoAmI(), 503, 'Fault injected by the control API.');
    expect((await control<Fault[]>(app, 'listFaults')).body).toEqual([{ ...fault, remaining: 1, hits: 1 }]);
    expectFault(await whoAmI(), 503, 'Fault injected by the control API.');
    expect((await control<Fault[]>(app, 'listFaults')).body).toEqual([]);
    const ok = await whoAmI();
    expect(ok.statusCode).toBe(200);
    expectConforms('getCurrentUser', ok);
  });

  it('uses the chosen status and message, touches only its operation, and answers before authentication', async () => {
    await fake();
    await inject({ operationId: 'createSession', status: 500, message: 'Simulated database outage.', count: 1 });
    expect((await whoAmI()).statusCode).toBe(200);
    const login = await app.inject({ method: 'POST', url: `${API}/users/session`, payload: { login: 'nobody', password: 'x' } });
    expectFault(login, 500, 'Simulated database outage.');
    expect(login.headers['set-cookie']).toBeUndefined();
    expect(app.fake.state.sessions.size).toBe(0);
  });

  it('a share fault answers that share of calls, drawn from the seeded source: the same seed, the same calls', async () => {
    const pattern = async (seed: number) => {
      await fake({ seed });
      await inject({ operationId: 'getCurrentUser', probability: 0.5 });
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) statuses.push((await whoAmI()).statusCode);
      const [listed] = (await control<Fault[]>(app, 'listFaults')).body;
      await app.close();
      return { statuses, listed };
    };
    const first = await pattern(7);
    const again = await pattern(7);
    const other = await pattern(8);
    expect(again.statuses).toEqual(first.statuses);
    expect(other.statuses).not.toEqual(first.statuses);
    const faulted = first.statuses.filter((s) => s === 503).length;
    expect(faulted).toBeGreaterThan(5);
    expect(faulted).toBeLessThan(35);
    expect(first.statuses.filter((s) => s === 200).length).toBe(40 - faulted);
    expect(first.listed).toMatchObject({ probability: 0.5, hits: faulted });
  });

  it('probability 1 answers every call and 0 none; when several match, the oldest answers', async () => {
    await fake();
    await inject({ operationId: 'getCurrentUser', probability: 0, status: 418 });
    await inject({ operationId: 'getCurrentUser', probability: 1, status: 502 });
    await inject({ operationId: 'getCurrentUser', count: 1, status: 504 });
    for (let i = 0; i < 3; i++) expectFault(await whoAmI(), 502, 'Fault injected by the control API.');
    const listed = (await control<Fault[]>(app, 'listFaults')).body;
    expect(listed.map((f) => [f.status, f.hits])).toEqual([[418, 0], [502, 3], [504, 0]]);
  });

  it('clears all faults, those of one operation, or one by id; an unknown id is 404', async () => {
    await fake();
    const a = (await inject({ operationId: 'getCurrentUser', count: 5 })).body;
    await inject({ operationId: 'getEventLog', count: 5 });
    await inject({ operationId: 'getEventLog', probability: 0.1 });
    expect((await control(app, 'clearFaults', { url: '/__control/faults?operationId=getEventLog' })).body).toEqual({ cleared: 2 });
    const removed = await control(app, 'deleteFault', { url: `/__control/faults/${a.id}` });
    expect(removed.status).toBe(204);
    expect(removed.response.body).toBe('');
    const again = await control(app, 'deleteFault', { url: `/__control/faults/${a.id}` });
    expect(again.status).toBe(404);
    expect(again.body).toMatchObject({ code: 'NOT_FOUND' });
    await inject({ operationId: 'getEventLog', count: 1 });
    expect((await control(app, 'clearFaults')).body).toEqual({ cleared: 1 });
    expect((await control(app, 'clearFaults')).body).toEqual({ cleared: 0 });
  });

  it("answers with the headers the document gives the fault's status, as a Prefer: code= answer: a 429's Retry-After, after a wait and with a custom body too", async () => {
    await fake();
    const documented = spec.operation('getEventLog').responses['429']?.headers?.['Retry-After'] as { example?: unknown } | undefined;
    expect(documented?.example).toBe(60);
    const eventLog = (headers: Record<string, string> = {}) => app.inject({ url: `${API}/event-log?limit=1`, headers: { ...basicOf('viewer'), ...headers } });
    const preferred = await eventLog({ prefer: 'code=429' });
    expect(preferred.headers['retry-after']).toBe('60');

    const rateLimited = { status: 429, code: 'RATE_LIMITED', message: 'Too many log-ins; try again in a minute.' };
    await inject({ operationId: 'getEventLog', count: 1, status: 429 });
    await inject({ operationId: 'createSession', count: 1, delayMs: 5, body: rateLimited });
    await inject({ operationId: 'getCurrentUser', count: 1, status: 503 });
    const faulted = await eventLog();
    expect(faulted.statusCode).toBe(429);
    expect(faulted.headers['retry-after']).toBe(preferred.headers['retry-after']);
    expect(JSON.parse(faulted.body)).toEqual({ status: 429, code: 'INJECTED_FAULT', message: 'Fault injected by the control API.' });
    expect(validator.validateNamed('Error', JSON.parse(faulted.body))).toEqual([]);
    const login = await app.inject({ method: 'POST', url: `${API}/users/session`, payload: { login: 'nobody', password: 'x' } });
    expect(login.statusCode).toBe(429);
    expect(login.headers['retry-after']).toBe('60');
    expect(JSON.parse(login.body)).toEqual(rateLimited);
    expectConforms('createSession', login);
    // The document gives a 503 no headers: none is made up.
    const unavailable = await whoAmI();
    expect(unavailable.statusCode).toBe(503);
    expect(unavailable.headers['retry-after']).toBeUndefined();
  });

  it('refuses a fault that breaks the FaultSpec schema with 400 INVALID_BODY, adding nothing', async () => {
    await fake();
    for (const body of [
      { operationId: 'getEventLog', count: 1, probability: 0.5 },
      { operationId: 'getEventLog' },
      { operationId: 'resetState', count: 1 },
      { operationId: 'getEventLog', count: 0 },
      { operationId: 'getEventLog', count: 1, status: 302 },
    ]) {
      const { status, body: error } = await inject(body);
      expect(status, JSON.stringify(body)).toBe(400);
      expect(error).toMatchObject({ code: 'INVALID_BODY' });
    }
    const badId = await control(app, 'deleteFault', { url: '/__control/faults/not-an-id' });
    expect(badId.status).toBe(400);
    expect(app.fake.faults.size).toBe(0);
  });
});
