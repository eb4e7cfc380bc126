import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildFake, type FakeApp } from '../../src/server/build.js';
import { control, controlSpec } from './control/helpers.js';
import { API, basicOf, expectConforms, expectError, spec } from './helpers.js';

// A generator that breaks part way: the MQTT messages of the seed fail from the nth on.
const breaking = vi.hoisted(() => ({ after: Infinity, calls: 0 }));
vi.mock('../../src/seed/mqtt-messages.js', async (original) => {
  const module = await original<typeof import('../../src/seed/mqtt-messages.js')>();
  return {
    ...module,
    sensorMessage: (...args: Parameters<typeof module.sensorMessage>) => {
      if (++breaking.calls > breaking.after) throw new Error('the sensor inventory broke');
      return module.sensorMessage(...args);
    },
  };
});

const apps: FakeApp[] = [];
afterEach(async () => {
  breaking.after = Infinity;
  await Promise.all(apps.splice(0).map((app) => app.close()));
});

/** A fake whose seed fails after some thousands of records, so in a later turn than the first. */
async function breakingFake(): Promise<FakeApp> {
  const app = await buildFake({ spec, records: 50_000, docs: false });
  apps.push(app);
  breaking.calls = 0;
  breaking.after = 6_000; // about the 20,000th record: MQTT messages are some 30 % of them
  return app;
}

const eventLog = (app: FakeApp, query = '?limit=1') => app.inject({ url: `${API}/event-log${query}`, headers: basicOf('viewer') });

describe('a seed that fails while it is made', () => {
  it('answers every request that waits, and every later one, with the Error body naming the failure; the rest of the API goes on', async () => {
    const app = await breakingFake();
    const waiting = [eventLog(app), eventLog(app, '?type=2&limit=5')];
    while (app.fake.state.data.events.status === 'pending') await new Promise((resolve) => setImmediate(resolve));
    expect(app.fake.state.data.events.status).toBe('making');
    const user = await app.inject({ url: `${API}/users/current`, headers: basicOf('viewer') });
    expectConforms('getCurrentUser', user);
    expect(user.statusCode).toBe(200);
    for (const answer of await Promise.all(waiting)) {
      const body = expectError(answer, 500, 'INTERNAL_ERROR');
      expect(body.message).toBe("The event log's records could not be made (the sensor inventory broke); the fake must be restarted.");
    }
    expect(app.fake.state.data.events.status).toBe('failed');
    // Never a half-made log: later calls fail the same way, reads and writes, the control API's too.
    expect(expectError(await eventLog(app), 500, 'INTERNAL_ERROR').message).toMatch(/could not be made/);
    const patch = await app.inject({ method: 'PATCH', url: `${API}/event-log/68b25f476669787472000001/payload`, payload: { text: 'x' }, headers: basicOf('operator') });
    expectError(patch, 500, 'INTERNAL_ERROR');
    for (const operationId of ['resetState', 'exportSnapshot', 'clearEventLog']) {
      const { path, method } = controlSpec.operation(operationId);
      const response = await app.inject({ method: method.toUpperCase() as 'GET', url: path });
      expect(expectError(response, 500, 'INTERNAL_ERROR').message, operationId).toMatch(/could not be made/);
    }
    // Parts of the state without the event log still answer.
    expect((await control(app, 'listSessions')).status).toBe(200);
    expect((await app.inject({ url: `${API}/users/current`, headers: basicOf('admin') })).statusCode).toBe(200);
  });
});
