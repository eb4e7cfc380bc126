// One suite for both forms of the MSW handlers (in-process, forwarded to a listening fake):
// the app's fetch, intercepted by MSW, gets the fake's answers with all its rules.
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { EventLogRecord, Fake } from '../../src/index.js';
import type { FakeHandlers } from '../../src/msw/index.js';

export const BASE = 'http://app.test';
const api = `${BASE}/node/api`;
const json = { 'content-type': 'application/json' };
const basic = (login: string) => `Basic ${Buffer.from(`${login}:${login}-password`).toString('base64')}`;

export interface HandlerForm {
  /** A fake (listening or not) and the handlers that answer from it under BASE. */
  start(): Promise<{ fake: Fake; handlers: FakeHandlers }>;
}

export function handlerSuite(name: string, form: HandlerForm): void {
  let fake: Fake;
  let handlers: FakeHandlers;
  let server: ReturnType<typeof setupServer>;

  beforeAll(async () => {
    ({ fake, handlers } = await form.start());
    server = setupServer(...handlers);
    server.listen({ onUnhandledRequest: 'error' });
  });
  afterAll(async () => {
    server?.close();
    await fake?.close();
  });
  beforeEach(async () => {
    await fake.reset();
    handlers.clearCookies();
  });

  const logIn = (login: string) =>
    fetch(`${api}/users/session`, { method: 'POST', headers: json, body: JSON.stringify({ login, password: `${login}-password` }), credentials: 'include' });

  describe(name, () => {
    it('pages the event log with Basic credentials, as inject answers it', async () => {
      const page = (skip: number) => fetch(`${api}/event-log?limit=5&skip=${skip}&sortDirection=desc`, { headers: { authorization: basic('viewer') } });
      const [first, second] = await Promise.all([page(0), page(5)]);
      expect([first.status, second.status]).toEqual([200, 200]);
      const [a, b] = (await Promise.all([first.json(), second.json()])) as EventLogRecord[][];
      expect(a).toHaveLength(5);
      expect(new Set([...a!, ...b!].map((r) => r._id)).size).toBe(10);
      const direct = await fake.inject({ url: '/node/api/event-log?limit=5&skip=5&sortDirection=desc', headers: { authorization: basic('viewer') } });
      expect(b).toEqual(direct.json());
    });

    it('logs in with a session cookie and PATCHes a payload with it; credentials "omit" sends no cookie', async () => {
      const session = await logIn('operator');
      expect(session.status).toBe(200);
      const me = await fetch(`${api}/users/current`, { credentials: 'include' });
      expect(((await me.json()) as { login: string }).login).toBe('operator');

      const [trap] = (await (await fetch(`${api}/event-log?type=1&limit=1`, { credentials: 'include' })).json()) as EventLogRecord[];
      const patched = await fetch(`${api}/event-log/${trap!._id}/payload`, { method: 'PATCH', headers: json, body: JSON.stringify({ text: 'seen by the night shift' }), credentials: 'include' });
      expect(patched.status).toBe(204);
      const [after] = (await (await fetch(`${api}/event-log?filter=${encodeURIComponent(JSON.stringify({ _id: trap!._id }))}`, { credentials: 'include' })).json()) as EventLogRecord[];
      expect(after!.payload).toMatchObject({ text: 'seen by the night shift' });

      const anonymous = await fetch(`${api}/users/current`, { credentials: 'omit' });
      expect(anonymous.status).toBe(401);
      handlers.clearCookies();
      expect((await fetch(`${api}/users/current`, { credentials: 'include' })).status).toBe(401);
    });

    it('keeps the permissions: a viewer may not PATCH', async () => {
      await logIn('viewer');
      const [record] = (await (await fetch(`${api}/event-log?type=1&limit=1`, { credentials: 'include' })).json()) as EventLogRecord[];
      const refused = await fetch(`${api}/event-log/${record!._id}/payload`, { method: 'PATCH', headers: json, body: '{"text":"x"}', credentials: 'include' });
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({ code: 'PERMISSION_DENIED' });
    });

    it('answers a fault set through the control API, once', async () => {
      const set = await fetch(`${BASE}/__control/faults`, { method: 'POST', headers: json, body: JSON.stringify({ operationId: 'getEventLog', status: 503, count: 1 }) });
      expect(set.status).toBe(201);
      const faulted = await fetch(`${api}/event-log`, { headers: { authorization: basic('viewer') } });
      expect(faulted.status).toBe(503);
      expect(await faulted.json()).toMatchObject({ code: 'INJECTED_FAULT' });
      expect((await fetch(`${api}/event-log`, { headers: { authorization: basic('viewer') } })).status).toBe(200);
    });

    it('a dropped connection is a network error; a hanging answer ends when the app aborts', async () => {
      await fake.injectFault({ operationId: 'getCurrentUser', action: 'drop', count: 1 });
      await expect(fetch(`${api}/users/current`, { headers: { authorization: basic('viewer') } })).rejects.toThrow(TypeError);
      await fake.injectFault({ operationId: 'getCurrentUser', action: 'hang', count: 1 });
      await expect(fetch(`${api}/users/current`, { headers: { authorization: basic('viewer') }, signal: AbortSignal.timeout(200) })).rejects.toThrow(/abort|timeout/i);
    });

    it('adds the configured latency', async () => {
      const config = await fetch(`${BASE}/__control/config`, { method: 'PATCH', headers: json, body: JSON.stringify({ latencyMs: 150 }) });
      expect(config.status).toBe(200);
      const started = performance.now();
      expect((await fetch(`${api}/users/current`, { headers: { authorization: basic('viewer') } })).status).toBe(200);
      expect(performance.now() - started).toBeGreaterThanOrEqual(140);
    });

    it('keeps the status and body of what the fake refuses, and answers an unknown path with its 404', async () => {
      const bad = await fetch(`${api}/event-log?limit=many`, { headers: { authorization: basic('viewer') } });
      const direct = await fake.inject({ url: '/node/api/event-log?limit=many', headers: { authorization: basic('viewer') } });
      expect(bad.status).toBe(400);
      expect(await bad.json()).toEqual(direct.json());
      const unknown = await fetch(`${api}/no-such-thing`, { headers: { authorization: basic('viewer') } });
      expect(unknown.status).toBe(404);
      expect(await unknown.json()).toMatchObject({ code: 'ROUTE_NOT_FOUND' });
      // Outside the fake's roots the handlers answer nothing: MSW's onUnhandledRequest decides.
      await expect(fetch(`${BASE}/index.html`)).rejects.toThrow();
    });

    it('journals the requests, their secrets masked', async () => {
      await fetch(`${api}/users/current?api-token=not-a-token`);
      const [entry] = await fake.requests({ operationId: 'getCurrentUser', limit: 1 });
      expect(entry).toMatchObject({ operationId: 'getCurrentUser', status: 401 });
      expect(JSON.stringify(entry)).not.toContain('not-a-token');
    });
  });
}
