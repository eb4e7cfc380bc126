// @vitest-environment jsdom
// Tests of frontend code that calls the monitoring API with fetch, answered through Mock
// Service Worker by the fake in-process: no port, and the fake's own rules (session log-in,
// permissions, paging, PATCH, faults). Copy into your project (with msw, vitest and jsdom).
import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createFake } from 'monitoring-api-kit';
import { handlersFor } from 'monitoring-api-kit/msw';

// The page's origin in jsdom: a log-in's cookies then go with every fetch, as in the browser.
const baseUrl = location.origin;
const fake = await createFake({ seed: 7, records: 200 }); // the same seed, the same data on every run
const handlers = handlersFor(fake, { baseUrl });
const server = setupServer(...handlers);

beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
beforeEach(async () => {
  await fake.reset(); // each test starts from the seed, no faults
  handlers.clearCookies(); // and logged out
});
afterAll(async () => {
  server.close();
  await fake.close();
});

// The code under test: in your project, the app's own API client.
interface EventRecord {
  _id: string;
  type: string;
  payload: { text?: string };
}
async function logIn(login: string, password: string): Promise<void> {
  const response = await fetch(`${baseUrl}/node/api/users/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ login, password }),
    credentials: 'include',
  });
  if (!response.ok) throw new Error(`log-in failed: ${response.status}`);
}
async function eventLogPage(page: number, size = 10): Promise<EventRecord[]> {
  const response = await fetch(`${baseUrl}/node/api/event-log?sortDirection=desc&limit=${size}&skip=${page * size}`, { credentials: 'include' });
  if (!response.ok) throw new Error(`the event log is unavailable (${response.status})`);
  return (await response.json()) as EventRecord[];
}
async function annotate(id: string, text: string): Promise<void> {
  const response = await fetch(`${baseUrl}/node/api/event-log/${id}/payload`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text }),
    credentials: 'include',
  });
  if (!response.ok) throw new Error(`could not annotate (${response.status})`);
}

describe('the event log page', () => {
  it('logs in with the session cookie and pages through the log', async () => {
    const { login, password } = fake.users.viewer!;
    await logIn(login, password);
    const [first, second] = [await eventLogPage(0), await eventLogPage(1)];
    expect(first).toHaveLength(10);
    expect(second.map((r) => r._id)).not.toContain(first[0]!._id);
  });

  it('annotates a trap, and a viewer may not', async () => {
    const { login, password } = fake.users.operator!;
    await logIn(login, password);
    const trap = (await eventLogPage(0)).find((r) => r.type === 'snmp-trap')!;
    await annotate(trap._id, 'acknowledged');
    expect((await eventLogPage(0)).find((r) => r._id === trap._id)?.payload.text).toBe('acknowledged');

    handlers.clearCookies();
    await logIn(fake.users.viewer!.login, fake.users.viewer!.password);
    await expect(annotate(trap._id, 'again')).rejects.toThrow('could not annotate (403)');
  });

  it('shows an empty state', async () => {
    await fake.replaceEventLog([]);
    await logIn(fake.users.viewer!.login, fake.users.viewer!.password);
    expect(await eventLogPage(0)).toEqual([]);
  });

  it('shows an error state when the server fails', async () => {
    await fake.injectFault({ operationId: 'getEventLog', status: 503, count: 1 });
    await logIn(fake.users.viewer!.login, fake.users.viewer!.password);
    await expect(eventLogPage(0)).rejects.toThrow('the event log is unavailable (503)');
    expect(await eventLogPage(0)).toHaveLength(10); // the fault answered once
  });
});
