import { afterEach, describe, expect, it } from 'vitest';
import { createManualClock } from '../../../src/shared/clock.js';
import { buildFake, type FakeApp } from '../../../src/server/build.js';
import type { Blocks, BlocksCleared, Snapshot, StateSummary } from '../../../src/spec/control-types.js';
import type { EventLogRecord } from '../../../src/spec/types.js';
import { API, basicOf, cookieValue, expectConforms, spec, USERS } from '../helpers.js';
import { control } from './helpers.js';

const START = 1_800_000_000_000;
let app: FakeApp;
afterEach(() => app?.close());
const fake = async (options: Parameters<typeof buildFake>[0] = {}) =>
  (app = await buildFake({ spec, docs: false, records: 50, clock: createManualClock(START), ...options }));

const trap = {
  type: 'snmp-trap',
  agentId: '5867948233835d9661c50001',
  payload: { senderAddress: '192.0.2.17', trapOid: '1.3.6.1.6.3.1.1.5.3', text: 'linkDown from 192.0.2.17: ifIndex=3', bindings: [{ oid: '1.3.6.1.2.1.2.2.1.1', type: 'Integer', value: 3 }] },
  entity: { entityId: '5867948233835d9661c5e001', entityType: 1, entityName: 'core-sw-01' },
} as const;
const mqtt = {
  _id: '5867948233835d9661c56dd0',
  type: 'mqtt-message',
  agentId: '5867948233835d9661c50002',
  timestamp: 1_756_497_680_000,
  payload: { topic: 'sensors/rack-4/temperature', message: '{"celsius":41.5}', qos: 1, retain: false },
  entity: { entityId: '5867948233835d9661c5e002', entityType: 2, entityName: 'rack-4-sensor' },
} as const;

async function eventLog(query: string) {
  const response = await app.inject({ url: `${API}/event-log${query}`, headers: basicOf('viewer') });
  expectConforms('getEventLog', response);
  return JSON.parse(response.body) as EventLogRecord[];
}

describe('adding event log records', () => {
  it('completes _id and timestamp, stores the records and returns them in the order sent', async () => {
    await fake();
    const { status, body } = await control<EventLogRecord[]>(app, 'addEventLogRecords', { payload: [trap, mqtt] });
    expect(status).toBe(201);
    expect(body[0]).toMatchObject({ ...trap, timestamp: START });
    expect(body[0]!._id).toMatch(/^[0-9a-f]{24}$/);
    expect(body[1]).toEqual(mqtt);
    const newest = await eventLog('?sortDirection=desc&limit=1');
    expect(newest).toEqual([body[0]]);
    expect(await eventLog(`?filter=${encodeURIComponent(JSON.stringify({ _id: mqtt._id }))}`)).toEqual([mqtt]);
  });

  it('refuses the whole body when one record is invalid or its _id exists, storing nothing', async () => {
    await fake();
    const before = app.fake.state.data.events.size;
    const invalid = await control(app, 'addEventLogRecords', { payload: [trap, { ...trap, payload: { ...trap.payload, trapOid: 'not an oid' } }] });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toMatchObject({ code: 'INVALID_BODY' });
    expect(JSON.stringify(invalid.body)).toContain('/1/payload/trapOid');

    await control(app, 'addEventLogRecords', { payload: [mqtt] });
    const duplicate = await control(app, 'addEventLogRecords', { payload: [trap, mqtt] });
    expect(duplicate.body).toEqual({
      status: 400,
      code: 'INVALID_BODY',
      message: `Record _id "${mqtt._id}" already exists.`,
      details: [{ location: 'body', name: '/1/_id', problem: 'already exists' }],
    });
    const twice = await control(app, 'addEventLogRecords', { payload: [{ ...trap, _id: '5867948233835d9661c56dff' }, { ...trap, _id: '5867948233835d9661c56dff' }] });
    expect(twice.status).toBe(400);
    for (const empty of [[], {}]) expect((await control(app, 'addEventLogRecords', { payload: empty })).status).toBe(400);
    expect(app.fake.state.data.events.size).toBe(before + 1);
  });
});

describe('adding records with several problems', () => {
  it('names every problem of every record by index and field in one answer', async () => {
    await fake();
    const before = app.fake.state.data.events.size;
    const bad = [trap, { ...mqtt, _id: undefined, payload: { ...mqtt.payload, qos: 5 } }, { ...trap, agentId: 3, payload: { ...trap.payload, trapOid: 'x' } }];
    const { status, body } = await control<{ details: { name: string }[]; message: string }>(app, 'addEventLogRecords', { payload: bad });
    expect(status).toBe(400);
    expect(body.details.map((d) => d.name)).toEqual(expect.arrayContaining(['/1/payload/qos', '/2/agentId', '/2/payload/trapOid']));
    expect(app.fake.state.data.events.size).toBe(before);
  });
});

describe('snapshots', () => {
  it('round-trips the whole state: tokens, records, block log, active blocks, config and faults; sessions end', async () => {
    await fake({ rateLimit: [{ key: 'login', limit: 1, windowSeconds: 60, blockSeconds: 300 }] });
    const token = JSON.parse((await app.inject({ method: 'POST', url: `${API}/users/${USERS.viewer.id}/auth-token`, headers: basicOf('admin') })).body) as string;
    await app.inject({ url: `${API}/users/current`, headers: basicOf('operator') });
    expect((await app.inject({ url: `${API}/users/current`, headers: basicOf('operator') })).statusCode).toBe(429);
    const login = await app.inject({ method: 'POST', url: `${API}/users/session`, payload: { login: 'viewer', password: 'viewer-password' } });
    const sid = cookieValue(login, 'sid');
    const [added] = (await control<EventLogRecord[]>(app, 'addEventLogRecords', { payload: [trap] })).body;
    await control(app, 'injectFault', { payload: { operationId: 'getLimitBlockLog', count: 3 } });
    await control(app, 'updateConfig', { payload: { latencyMs: 7 } });

    const { body: snapshot, response } = await control<Snapshot>(app, 'exportSnapshot');
    expect(response.body).not.toContain(sid);
    expect(snapshot).toMatchObject({ format: 'monitoring-api-kit/snapshot', version: 1, takenAt: START, sessions: { count: 1 } });
    expect(snapshot.users).toContainEqual({ id: USERS.viewer.id, login: 'viewer', authenticationToken: token });
    expect(snapshot.eventLog).toHaveLength(app.fake.state.data.events.size);
    expect(snapshot.activeBlocks).toEqual([{ key: 'login', value: 'operator', blockedAt: START, expiresAt: START + 300_000 }]);
    expect(snapshot.config.latencyMs).toBe(7);
    expect(snapshot.faults).toHaveLength(1);

    const summary = (await control<StateSummary>(app, 'resetState')).body;
    expect(summary).toMatchObject({ users: 3, tokens: 0, sessions: 0, faults: 0, activeBlocks: 0 });
    expect(summary.eventLogRecords).toBe(snapshot.eventLog.length - 1);

    const restored = await control<StateSummary>(app, 'importSnapshot', { method: 'PUT', payload: snapshot });
    expect(restored.body).toEqual({ users: 3, tokens: 1, sessions: 0, eventLogRecords: snapshot.eventLog.length, blockLogRecords: snapshot.blockLog.length, activeBlocks: 1, faults: 1 });
    const again = (await control<Snapshot>(app, 'exportSnapshot')).body;
    expect({ ...again, sessions: snapshot.sessions }).toEqual(snapshot);
    expect(JSON.parse((await app.inject({ url: `${API}/users/current?api-token=${token}` })).body).login).toBe('viewer');
    expect((await app.inject({ url: `${API}/users/current`, cookies: { sid } })).statusCode).toBe(401);
    expect((await app.inject({ url: `${API}/users/current`, headers: basicOf('operator') })).statusCode).toBe(429);
    expect(app.fake.state.data.events.get(added!._id)).toEqual(added);
  });

  it('drops active blocks that are over by the time of restoring', async () => {
    const clock = createManualClock(START);
    await fake({ clock, rateLimit: [{ key: 'login', limit: 1, windowSeconds: 60, blockSeconds: 60 }] });
    await app.inject({ url: `${API}/users/current`, headers: basicOf('operator') });
    await app.inject({ url: `${API}/users/current`, headers: basicOf('operator') });
    const snapshot = (await control<Snapshot>(app, 'exportSnapshot')).body;
    clock.advance(61_000);
    expect((await control<StateSummary>(app, 'importSnapshot', { method: 'PUT', payload: snapshot })).body.activeBlocks).toBe(0);
  });

  it('refuses a snapshot that is not valid or not of these users, changing nothing', async () => {
    await fake();
    const snapshot = (await control<Snapshot>(app, 'exportSnapshot')).body;
    const before = JSON.stringify(snapshot);
    const cases: unknown[] = [
      { ...snapshot, format: 'other' },
      { ...snapshot, version: 2 },
      { ...snapshot, users: [{ id: USERS.admin.id, login: 'root' }] },
      { ...snapshot, users: [{ id: USERS.admin.id, login: 'admin', authenticationToken: '32925106-8c56-41d1-8713-410f203e8ce0' }, { id: USERS.viewer.id, login: 'viewer', authenticationToken: '32925106-8c56-41d1-8713-410f203e8ce0' }] },
      { ...snapshot, eventLog: [snapshot.eventLog[0], snapshot.eventLog[0]] },
      { ...snapshot, eventLog: [{ ...snapshot.eventLog[0], type: 'syslog' }] },
      { ...snapshot, faults: [{ bogus: true }] },
    ];
    for (const body of cases) {
      const refused = await control(app, 'importSnapshot', { method: 'PUT', payload: body as object });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ code: 'INVALID_BODY' });
    }
    const after = (await control<Snapshot>(app, 'exportSnapshot')).body;
    expect(JSON.stringify(after)).toBe(before);
  });
});

describe('blocks', () => {
  it('lists active blocks and the block log, and clears either or both', async () => {
    await fake({ rateLimit: [{ key: 'ip', limit: 2, windowSeconds: 10, blockSeconds: 30 }] });
    const seeded = app.fake.state.data.blocks.size;
    expect(seeded).toBeGreaterThan(0);
    for (let i = 0; i < 3; i++) await app.inject({ url: `${API}/users/current`, remoteAddress: '198.51.100.9' });
    const { body } = await control<Blocks>(app, 'listBlocks');
    expect(body.active).toEqual([{ key: 'ip', value: '198.51.100.9', blockedAt: START, expiresAt: START + 30_000 }]);
    expect(body.log).toHaveLength(seeded + 1);
    expect(body.log.at(-1)).toEqual({ ip: '198.51.100.9', timestamp: START, ttl: 30 });

    expect((await control<BlocksCleared>(app, 'clearBlocks', { url: '/__control/blocks?scope=active' })).body).toEqual({ active: 1, log: 0 });
    expect((await app.inject({ url: `${API}/users/current`, remoteAddress: '198.51.100.9' })).statusCode).toBe(401);
    expect((await control<BlocksCleared>(app, 'clearBlocks', { url: '/__control/blocks?scope=log' })).body).toEqual({ active: 0, log: seeded + 1 });
    expect((await control<Blocks>(app, 'listBlocks')).body).toEqual({ active: [], log: [] });
    expect((await control<BlocksCleared>(app, 'clearBlocks')).body).toEqual({ active: 0, log: 0 });
    expect((await control(app, 'clearBlocks', { url: '/__control/blocks?scope=some' })).body).toMatchObject({ code: 'INVALID_PARAMETER' });
  });

  it('new rules from updateConfig restart the windows and keep active blocks', async () => {
    await fake({ rateLimit: [{ key: 'ip', limit: 1, windowSeconds: 60, blockSeconds: 60 }] });
    const hit = (ip: string) => app.inject({ url: `${API}/users/current`, remoteAddress: ip });
    await hit('198.51.100.1');
    await hit('198.51.100.1');
    await hit('198.51.100.2');
    await control(app, 'updateConfig', { payload: { rateLimit: { rules: [{ key: 'ip', limit: 2, windowSeconds: 60, blockSeconds: 60 }] } } });
    expect((await hit('198.51.100.1')).statusCode).toBe(429);
    expect((await hit('198.51.100.2')).statusCode).toBe(401);
    expect((await hit('198.51.100.2')).statusCode).toBe(401);
    expect((await hit('198.51.100.2')).statusCode).toBe(429);
    await control(app, 'updateConfig', { payload: { rateLimit: { rules: [] } } });
    expect((await hit('198.51.100.3')).statusCode).toBe(401);
    expect((await control<Blocks>(app, 'listBlocks')).body.active.map((b) => b.value)).toEqual(['198.51.100.1', '198.51.100.2']);
  });
});
