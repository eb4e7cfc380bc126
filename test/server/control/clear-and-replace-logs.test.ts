import { afterEach, describe, expect, it } from 'vitest';
import { createManualClock } from '../../../src/shared/clock.js';
import { buildFake, type FakeApp } from '../../../src/server/build.js';
import type { Blocks, Cleared, StateSummary } from '../../../src/spec/control-types.js';
import type { ApiErrorBody, BlockedRequest, EventLogRecord } from '../../../src/spec/types.js';
import { API, basicOf, expectConforms, spec } from '../helpers.js';
import { control } from './helpers.js';

const START = 1_800_000_000_000;
let app: FakeApp;
afterEach(() => app?.close());
const fake = async () => (app = await buildFake({ spec, docs: false, records: 40, clock: createManualClock(START) }));

const mqtt = (i: number, extra: object = {}) => ({
  type: 'mqtt-message',
  agentId: '5867948233835d9661c50002',
  payload: { topic: `sensors/rack-${i}/temperature`, message: '{"celsius":41.5}', qos: 1, retain: false },
  entity: { entityId: '5867948233835d9661c5e002', entityType: 2, entityName: 'rack-4-sensor' },
  ...extra,
});

async function eventLog(): Promise<EventLogRecord[]> {
  const response = await app.inject({ url: `${API}/event-log?limit=1000`, headers: basicOf('viewer') });
  expectConforms('getEventLog', response);
  return JSON.parse(response.body) as EventLogRecord[];
}

async function blockLog(): Promise<BlockedRequest[]> {
  const response = await app.inject({ url: `${API}/limit-block-log`, headers: basicOf('admin') });
  expectConforms('getLimitBlockLog', response);
  return JSON.parse(response.body) as BlockedRequest[];
}

describe('clearing and replacing the event log', () => {
  it('DELETE empties it (the API then lists nothing), and reset brings the seed back', async () => {
    await fake();
    const seeded = app.fake.state.data.events.size;
    expect(seeded).toBeGreaterThan(0);
    const { status, body } = await control<Cleared>(app, 'clearEventLog', { method: 'DELETE' });
    expect(status).toBe(200);
    expect(body).toEqual({ cleared: seeded });
    expect(await eventLog()).toEqual([]);
    expect((await control<Cleared>(app, 'clearEventLog', { method: 'DELETE' })).body).toEqual({ cleared: 0 });
    expect((await control<StateSummary>(app, 'resetState')).body.eventLogRecords).toBe(seeded);
  });

  it('PUT replaces it with the records sent, completed like an add, and the API lists exactly those', async () => {
    await fake();
    const given = [mqtt(1), mqtt(2, { _id: '5867948233835d9661c56dd0', timestamp: START - 5000 })];
    const { status, body } = await control<EventLogRecord[]>(app, 'replaceEventLog', { method: 'PUT', payload: given });
    expect(status).toBe(200);
    expect(body[0]).toMatchObject({ ...given[0], timestamp: START });
    expect(body[0]!._id).toMatch(/^[0-9a-f]{24}$/);
    expect(body[1]).toEqual(given[1]);
    expect(await eventLog()).toEqual([body[1], body[0]]);
    // An id that the old log held may be used again: the old records are gone.
    const again = await control<EventLogRecord[]>(app, 'replaceEventLog', { method: 'PUT', payload: [given[1]] });
    expect(again.body).toEqual([given[1]]);
    expect((await control<EventLogRecord[]>(app, 'replaceEventLog', { method: 'PUT', payload: [] })).body).toEqual([]);
    expect(await eventLog()).toEqual([]);
  });

  it('refuses a body with problems, naming every one by index and field, and changes nothing', async () => {
    await fake();
    const before = await eventLog();
    const bad = [
      mqtt(0),
      mqtt(1, { payload: { topic: 't', message: 'm', qos: 7 } }),
      mqtt(2, { _id: '5867948233835d9661c56dd1' }),
      mqtt(3, { _id: '5867948233835d9661c56dd1' }),
      mqtt(4, { entity: { entityId: 'e', entityType: 2 } }),
    ];
    const refused = await control<ApiErrorBody>(app, 'replaceEventLog', { method: 'PUT', payload: bad });
    expect(refused.status).toBe(400);
    expect(refused.body.code).toBe('INVALID_BODY');
    const names = refused.body.details?.map((d) => d.name) ?? [];
    expect(names).toEqual(expect.arrayContaining(['/1/payload/qos', '/4/entity/entityName']));
    expect(await eventLog()).toEqual(before);

    // Past the document's checks, an _id repeated within the body is refused too.
    const twice = await control<ApiErrorBody>(app, 'replaceEventLog', { method: 'PUT', payload: bad.filter((_, i) => i !== 1 && i !== 4) });
    expect(twice.status).toBe(400);
    expect(twice.body.details).toEqual([{ location: 'body', name: '/2/_id', problem: 'repeats the _id "5867948233835d9661c56dd1" of an earlier record' }]);
    expect(await eventLog()).toEqual(before);
  });

  it('bounds hostile bodies: too many records, a non-array, and a body over the limit', async () => {
    await fake();
    const before = app.fake.state.data.events.size;
    const many = Array.from({ length: 100_001 }, () => ({}));
    expect((await control(app, 'replaceEventLog', { method: 'PUT', payload: many })).status).toBe(400);
    expect((await control(app, 'replaceEventLog', { method: 'PUT', payload: { records: [] } })).status).toBe(400);
    const giant = await control(app, 'replaceEventLog', { method: 'PUT', payload: `[${'1,'.repeat(9 * 1024 * 1024)}1]`, headers: { 'content-type': 'application/json' } });
    expect(giant.status).toBe(413);
    expect(app.fake.state.data.events.size).toBe(before);
  });
});

describe('clearing and replacing the block log', () => {
  it('DELETE empties it and keeps active blocks; PUT replaces it; reset brings the seed back', async () => {
    app = await buildFake({ spec, docs: false, records: 40, clock: createManualClock(START), rateLimit: [{ key: 'login', limit: 2, windowSeconds: 60, blockSeconds: 60 }] });
    const seeded = app.fake.state.data.blocks.size;
    for (let i = 0; i < 3; i++) await app.inject({ url: `${API}/users/current`, headers: basicOf('operator') });
    expect((await control<Cleared>(app, 'clearBlockLog', { method: 'DELETE' })).body).toEqual({ cleared: seeded + 1 });
    expect(await blockLog()).toEqual([]);
    expect((await control<Blocks>(app, 'listBlocks')).body.active).toHaveLength(1);

    const given: BlockedRequest[] = [{ login: 'operator', timestamp: START, ttl: 300 }, { ip: '198.51.100.23', timestamp: START - 1000, ttl: 60 }, { uri: '/node/api/event-log' }];
    const replaced = await control<BlockedRequest[]>(app, 'replaceBlockLog', { method: 'PUT', payload: given });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toEqual([given[2], given[1], given[0]]);
    expect(await blockLog()).toEqual(replaced.body);
    expect((await control<StateSummary>(app, 'resetState')).body.blockLogRecords).toBe(seeded);
  });

  it('refuses a body with problems, naming every one, and changes nothing', async () => {
    await fake();
    const before = await blockLog();
    const refused = await control<ApiErrorBody>(app, 'replaceBlockLog', { method: 'PUT', payload: [{ ip: '198.51.100.1' }, { ttl: -1 }, { timestamp: 'now' }] });
    expect(refused.status).toBe(400);
    expect(refused.body.details?.map((d) => d.name)).toEqual(expect.arrayContaining(['/1/ttl', '/2/timestamp']));
    expect((await control(app, 'replaceBlockLog', { method: 'PUT', payload: Array.from({ length: 100_001 }, () => ({})) })).status).toBe(400);
    expect(await blockLog()).toEqual(before);
  });
});
