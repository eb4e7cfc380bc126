import { afterEach, describe, expect, it } from 'vitest';
import { createManualClock } from '../../src/shared/clock.js';
import { ControlApiError } from '../../src/fake/control-methods.js';
import { createFake, type Fake } from '../../src/fake/create-fake.js';
import type { EventLogRecord } from '../../src/spec/types.js';
import { checkControlCalls, controlOperationOf } from '../server/control/helpers.js';
import { API, basicOf, expectConforms, spec } from '../server/helpers.js';

const START = 1_800_000_000_000;
let fake: Fake | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

describe('createFake', () => {
  it('clears and replaces the event log and the block log', async () => {
    fake = await createFake({ spec, records: 20, docs: false, clock: createManualClock(START) });
    checkControlCalls(fake.app);
    const read = async (operationId: 'getEventLog' | 'getLimitBlockLog', path: string) => {
      const response = await fake!.inject({ url: `${API}${path}`, headers: basicOf('admin') });
      expectConforms(operationId, response);
      return JSON.parse(response.body) as unknown[];
    };
    const held = (await fake.snapshot()).eventLog.length;
    expect(await fake.clearEventLog()).toBe(held);
    expect(await read('getEventLog', '/event-log')).toEqual([]);
    const [record] = await fake.replaceEventLog([{ type: 'mqtt-message', agentId: 'a1', payload: { topic: 't/1', message: 'hi', qos: 0 }, entity: { entityId: 'e1', entityType: 2, entityName: 'sensor' } }]);
    expect(await read('getEventLog', '/event-log')).toEqual([record]);
    expect(await fake.clearBlockLog()).toBeGreaterThan(0);
    expect(await read('getLimitBlockLog', '/limit-block-log')).toEqual([]);
    expect(await fake.replaceBlockLog([{ ip: '198.51.100.7', timestamp: START, ttl: 30 }])).toEqual([{ ip: '198.51.100.7', timestamp: START, ttl: 30 }]);
    await expect(fake.replaceBlockLog([{ ttl: -1 }])).rejects.toThrow(ControlApiError);
    expect(await read('getLimitBlockLog', '/limit-block-log')).toEqual([{ ip: '198.51.100.7', timestamp: START, ttl: 30 }]);
  });

  it('gives the seeded users with their passwords, and answers through inject', async () => {
    fake = await createFake({ spec, records: 20, docs: false });
    expect(Object.keys(fake.users)).toEqual(['admin', 'operator', 'viewer']);
    expect(fake.users.admin).toMatchObject({ login: 'admin', password: 'admin-password', permissions: expect.arrayContaining(['manage-users']) });
    const { login, password } = fake.users.viewer!;
    const me = await fake.inject({ url: `${API}/users/current`, headers: { authorization: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}` } });
    expectConforms('getCurrentUser', me);
    expect(JSON.parse(me.body).login).toBe('viewer');
    expect(fake.urls).toBeUndefined();
  });

  it('has the control operations as typed methods, and throws ControlApiError for a refused call', async () => {
    fake = await createFake({ spec, records: 20, docs: false, clock: createManualClock(START) });
    checkControlCalls(fake.app);
    expect(controlOperationOf('DELETE', '/__control/faults/5867948233835d9661c5f009?x=1')).toBe('deleteFault');
    const [added] = await fake.addRecords([
      { type: 'mqtt-message', agentId: 'a1', payload: { topic: 't/1', message: 'hi', qos: 0 }, entity: { entityId: 'e1', entityType: 2, entityName: 'sensor' } },
    ]);
    expect(added).toMatchObject({ timestamp: START, type: 'mqtt-message' });
    const snapshot = await fake.snapshot();
    expect(snapshot.eventLog.map((r) => r._id)).toContain(added!._id);

    const fault = await fake.injectFault({ operationId: 'getCurrentUser', count: 1 });
    expect(await fake.faults()).toEqual([fault]);
    expect((await fake.inject({ url: `${API}/users/current`, headers: basicOf('admin') })).statusCode).toBe(503);
    await fake.injectFault({ operationId: 'getEventLog', probability: 0.5 });
    expect(await fake.clearFaults('getEventLog')).toBe(1);

    expect(await fake.setConfig({ latencyMs: 0, requireCsrf: true })).toMatchObject({ requireCsrf: true });
    expect((await fake.config()).requireCsrf).toBe(true);
    expect(await fake.sessions()).toEqual([]);
    expect(await fake.clearSessions()).toBe(0);
    expect((await fake.blocks()).active).toEqual([]);
    expect(await fake.clearBlocks('active')).toEqual({ active: 0, log: 0 });

    const summary = await fake.reset();
    expect(summary).toMatchObject({ users: 3, faults: 0 });
    expect((await fake.config()).requireCsrf).toBe(false);
    expect(await fake.restore(snapshot)).toMatchObject({ eventLogRecords: snapshot.eventLog.length });

    const refused = await fake.deleteFault('5867948233835d9661c5f009').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(ControlApiError);
    expect(refused).toMatchObject({ status: 404, body: { code: 'NOT_FOUND' }, operationId: 'deleteFault' });
    await expect(fake.setConfig({ latencyMs: -5 })).rejects.toMatchObject({ status: 400, body: { code: 'INVALID_BODY' } });
  });

  it('fakes made the same way start from the same records, and what one changes stays in it', async () => {
    const events = async (f: Fake) => JSON.parse((await f.inject({ url: `${API}/event-log?sortDirection=asc`, headers: basicOf('admin') })).body) as EventLogRecord[];
    fake = await createFake({ spec, records: 20, docs: false });
    const other = await createFake({ spec, records: 20, docs: false });
    const anchored = await createFake({ spec, records: 20, docs: false, anchor: START });
    try {
      const seeded = await events(other);
      expect(await events(fake)).toEqual(seeded);
      const trap = seeded.find((r) => r.type === 'snmp-trap')!;
      const patched = await fake.inject({ method: 'PATCH', url: `${API}/event-log/${trap._id}/payload`, headers: basicOf('admin'), payload: { text: 'acknowledged' } });
      expect(patched.statusCode).toBe(204);
      expect((await events(fake)).find((r) => r._id === trap._id)?.payload).toMatchObject({ text: 'acknowledged' });
      expect(await events(other)).toEqual(seeded);
      // An anchor moves the same records in time.
      const moved = await events(anchored);
      expect(moved.map((r) => r._id)).toEqual(seeded.map((r) => r._id));
      const shift = moved[0]!.timestamp - seeded[0]!.timestamp;
      expect(shift).not.toBe(0);
      expect(moved.map((r) => r.timestamp - shift)).toEqual(seeded.map((r) => r.timestamp));
    } finally {
      await other.close();
      await anchored.close();
    }
  });

  it('listens on a free port and tells its URLs; close is safe to call twice', async () => {
    fake = await createFake({ spec, records: 5 });
    const urls = await fake.listen();
    expect(urls.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(urls).toEqual({ origin: urls.origin, baseUrl: `${urls.origin}/node/api`, docsUrl: `${urls.origin}/docs`, controlUrl: `${urls.origin}/__control`, inspectorUrl: `${urls.origin}/__inspector` });
    expect(fake.urls).toEqual(urls);
    const response = await fetch(`${urls.baseUrl}/users/current`, { headers: basicOf('operator') });
    expect((await response.json()).login).toBe('operator');
    expect((await fetch(urls.docsUrl)).headers.get('content-type')).toMatch(/^text\/html/);
    await fake.close();
    await fake.close();
    fake = undefined;
  });
});

describe('live events', () => {
  it('the event log grows by the live rate, and paging in timestamp order stays right while it grows', async () => {
    const clock = createManualClock(START);
    const ticks: (() => void)[] = [];
    const live: EventLogRecord[] = [];
    fake = await createFake({
      spec, docs: false, records: 30, clock, liveRate: 4,
      timers: { setInterval: (tick) => ticks.push(tick), clearInterval: () => ticks.splice(0) },
      onRecord: (record, source) => source === 'live' && void live.push(record),
    });
    const grow = (ms: number) => {
      clock.advance(ms);
      ticks.forEach((tick) => tick());
    };
    const page = async (skip: number) => {
      const response = await fake!.inject({ url: `${API}/event-log?limit=10&skip=${skip}`, headers: basicOf('viewer') });
      expectConforms('getEventLog', response);
      return JSON.parse(response.body) as EventLogRecord[];
    };
    const seeded = (await fake.snapshot()).eventLog;
    const read: EventLogRecord[] = [];
    for (let skip = 0; ; skip += 10) {
      const records = await page(skip);
      read.push(...records);
      grow(1000);
      if (records.length < 10) break;
    }
    expect(live.length).toBeGreaterThanOrEqual(4 * Math.ceil(seeded.length / 10));
    const all = (await fake.snapshot()).eventLog;
    expect(all).toHaveLength(seeded.length + live.length);
    // No record read twice, none skipped: what was read is the start of the log as it is now.
    expect(read.map((r) => r._id)).toEqual(all.slice(0, read.length).map((r) => r._id));
    expect(all.slice(seeded.length).map((r) => r._id)).toEqual(live.map((r) => r._id));
    expect(live.at(-1)!.timestamp).toBe(clock.now());
    await fake.close();
    expect(ticks).toEqual([]);
  });
});
