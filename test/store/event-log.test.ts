import { beforeAll, describe, expect, it } from 'vitest';
import { generateEvents } from '../../src/seed/generate-events.js';
import type { EventLogRecord, MqttMessageRecord, SnmpTrapRecord } from '../../src/spec/types.js';
import { EventLogStore } from '../../src/store/event-log.js';

const records = generateEvents({ count: 300 });
const ids = (rs: readonly EventLogRecord[]) => rs.map((r) => r._id);
const firstOf = <T extends EventLogRecord['type']>(type: T) =>
  records.find((r) => r.type === type) as T extends 'snmp-trap' ? SnmpTrapRecord : MqttMessageRecord;

function bare(id: string, timestamp: number, extra: Record<string, unknown> = {}): EventLogRecord {
  return {
    _id: id,
    type: 'mqtt-message',
    agentId: 'a',
    timestamp,
    payload: { topic: 't', message: 'm', qos: 0 },
    entity: { entityId: 'e', entityType: 2, entityName: 'n' },
    ...extra,
  } as EventLogRecord;
}

describe('EventLogStore queries', () => {
  let store: EventLogStore;
  beforeAll(() => {
    store = new EventLogStore(records);
  });

  it('answers the common page queries from either end', () => {
    expect(ids(store.query({ limit: 50 }))).toEqual(ids(records.slice(0, 50)));
    expect(ids(store.query({ limit: 50, sortDirection: 'desc' }))).toEqual(ids(records.slice(-50).reverse()));
    expect(ids(store.query({ limit: 50, inverse: true }))).toEqual(ids(records.slice(-50).reverse()));
    expect(ids(store.query({ limit: 50, sortDirection: 'desc', inverse: true }))).toEqual(ids(records.slice(0, 50)));
    expect(ids(store.query({ skip: 290, limit: 50 }))).toEqual(ids(records.slice(290)));
    expect(store.query({ skip: 300, limit: 50 })).toEqual([]);
    expect(store.query({ limit: 0 })).toEqual([]);
    expect(store.query()).toHaveLength(300);
  });

  it('selects by type and by inclusive time bounds', () => {
    const traps = records.filter((r) => r.type === 'snmp-trap');
    expect(ids(store.query({ type: 'snmp-trap' }))).toEqual(ids(traps));
    const t = records[100] as EventLogRecord;
    const u = records[200] as EventLogRecord;
    const between = records.filter((r) => r.timestamp >= t.timestamp && r.timestamp <= u.timestamp);
    expect(ids(store.query({ from: t.timestamp, to: u.timestamp }))).toEqual(ids(between));
    expect(ids(store.query({ from: t.timestamp, to: t.timestamp }))).toContain(t._id);
    expect(store.query({ from: u.timestamp, to: t.timestamp })).toEqual([]);
    const mqttInRange = between.filter((r) => r.type === 'mqtt-message').reverse().slice(3, 8);
    expect(ids(store.query({ type: 'mqtt-message', from: t.timestamp, to: u.timestamp, sortDirection: 'desc', skip: 3, limit: 5 }))).toEqual(ids(mqttInRange));
  });

  it('filters with MongoDB operators on dotted paths', () => {
    const linkDown = records.filter((r) => r.type === 'snmp-trap' && r.payload.trapOid === '1.3.6.1.6.3.1.1.5.3');
    expect(linkDown.length).toBeGreaterThan(0);
    expect(ids(store.query({ filter: { 'payload.trapOid': '1.3.6.1.6.3.1.1.5.3' } }))).toEqual(ids(linkDown));
    const interfaces = records.filter((r) => r.entity.entityType === 3);
    expect(ids(store.query({ filter: { 'entity.entityType': { $in: [3] } }, limit: 5, inverse: true }))).toEqual(ids(interfaces.reverse().slice(0, 5)));
    const alarms = store.query({ filter: { 'payload.text': { $regex: '^LINKUP', $options: 'i' } } });
    expect(alarms.length).toBeGreaterThan(0);
    for (const r of alarms) expect((r as SnmpTrapRecord).payload.text).toMatch(/^linkUp/);
  });

  it('sorts by other fields in MongoDB order, ties by _id in the same direction', () => {
    const s = new EventLogStore([
      bare('000000000000000000000004', 1, { extra: 'b' }),
      bare('000000000000000000000001', 2, { extra: 2 }),
      bare('000000000000000000000003', 3),
      bare('000000000000000000000002', 4, { extra: null }),
      bare('000000000000000000000005', 5, { extra: [] }),
      bare('000000000000000000000006', 6, { extra: [3, 'c'] }),
      bare('000000000000000000000007', 7, { extra: true }),
      bare('000000000000000000000008', 8, { extra: { x: 1 } }),
    ]);
    const order = (q: Parameters<EventLogStore['query']>[0]) => ids(s.query(q)).map((id) => Number(id.slice(-1)));
    // [] < missing = null (by _id) < 2 < [3,'c'] (its smallest, 3) < 'b' < {x:1} < true
    expect(order({ sortField: 'extra' })).toEqual([5, 2, 3, 1, 6, 4, 8, 7]);
    // descending, [3,'c'] sorts by its largest element, 'c'
    expect(order({ sortField: 'extra', sortDirection: 'desc' })).toEqual([7, 8, 6, 4, 1, 3, 2, 5]);
    // inverse reverses the ascending order exactly
    expect(order({ sortField: 'extra', inverse: true })).toEqual([7, 8, 4, 6, 1, 3, 2, 5]);
    expect(order({ sortField: 'extra', skip: 2, limit: 3 })).toEqual([3, 1, 6]);
  });
});

describe('EventLogStore.updatePayload', () => {
  it('changes the text of an SNMP trap and nothing else', () => {
    const store = new EventLogStore(records);
    const trap = firstOf('snmp-trap');
    const before = JSON.stringify(store.snapshot());
    const held = store.get(trap._id) as SnmpTrapRecord;
    const result = store.updatePayload(trap._id, { text: 'linkDown acknowledged by the night shift' });
    expect(result.ok).toBe(true);
    const after = store.get(trap._id) as SnmpTrapRecord;
    expect(after.payload.text).toBe('linkDown acknowledged by the night shift');
    expect({ ...after, payload: { ...after.payload, text: trap.payload.text } }).toEqual(trap);
    expect(JSON.stringify(after).replace('linkDown acknowledged by the night shift', trap.payload.text)).toBe(JSON.stringify(trap));
    // Everything else in the store is as it was, and what was handed out earlier did not change.
    const changed = JSON.parse(JSON.stringify(store.snapshot())) as EventLogRecord[];
    const i = changed.findIndex((r) => r._id === trap._id);
    (changed[i] as SnmpTrapRecord).payload.text = trap.payload.text;
    expect(JSON.stringify(changed)).toBe(before);
    expect(held.payload.text).toBe(trap.payload.text);
    expect(store.query({ filter: { 'payload.text': 'linkDown acknowledged by the night shift' } }).map((r) => r._id)).toEqual([trap._id]);
  });

  it('refuses MQTT records and unknown ids, changing nothing', () => {
    const store = new EventLogStore(records);
    const before = JSON.stringify(store.snapshot());
    const mqtt = firstOf('mqtt-message');
    expect(store.updatePayload(mqtt._id, { text: 'x' })).toEqual({ ok: false, reason: 'not-snmp', type: 'mqtt-message' });
    expect(store.updatePayload('ffffffffffffffffffffffff', { text: 'x' })).toEqual({ ok: false, reason: 'not-found' });
    expect(JSON.stringify(store.snapshot())).toBe(before);
  });
});

describe('EventLogStore state', () => {
  it('hands out records that cannot be changed', () => {
    const store = new EventLogStore(records);
    const trap = store.query({ type: 'snmp-trap', limit: 1 })[0] as SnmpTrapRecord;
    const text = trap.payload.text;
    expect(() => {
      trap.payload.text = 'hacked';
    }).toThrow(TypeError);
    expect(() => {
      (trap.payload.bindings[0] as { value: unknown }).value = 0;
    }).toThrow(TypeError);
    expect((store.get(trap._id) as SnmpTrapRecord).payload.text).toBe(text);
  });

  it('adds records in order and keeps a copy, refusing duplicate ids', () => {
    const store = new EventLogStore([bare('000000000000000000000001', 10), bare('000000000000000000000003', 30)]);
    const late = bare('000000000000000000000009', 20);
    store.add(late);
    store.add(bare('000000000000000000000002', 40));
    (late as { agentId: string }).agentId = 'changed after add';
    expect(ids(store.query())).toEqual(['000000000000000000000001', '000000000000000000000009', '000000000000000000000003', '000000000000000000000002']);
    expect(store.get(late._id)?.agentId).toBe('a');
    expect(() => store.add(bare('000000000000000000000003', 50))).toThrow(/already exists/);
    expect(() => store.add(bare('000000000000000000000004', -1))).toThrow(/timestamp/);
    expect(store.size).toBe(4);
  });

  it('adds batches all or none', () => {
    const store = new EventLogStore(records);
    const before = JSON.stringify(store.snapshot());
    const fresh = (n: number) => bare(`eeeeeeeeeeeeeeeeeeee${String(n).padStart(4, '0')}`, records[n]!.timestamp);
    expect(() => store.addAll([fresh(1), records[5]!])).toThrow(`An event log record with _id "${records[5]!._id}" already exists.`);
    expect(() => store.addAll([fresh(1), fresh(2), fresh(1)])).toThrow(/already exists/);
    expect(() => store.addAll([fresh(1), bare('eeeeeeeeeeeeeeeeeeeeffff', -5)])).toThrow(/timestamp/);
    expect(JSON.stringify(store.snapshot())).toBe(before);
    const batch = Array.from({ length: 40 }, (_, i) => fresh(299 - i * 7));
    expect(store.addAll(batch).map((r) => r._id)).toEqual(batch.map((r) => r._id));
    const all = store.query();
    expect(all).toHaveLength(340);
    for (let i = 1; i < all.length; i++) expect(all[i - 1]!.timestamp <= all[i]!.timestamp).toBe(true);
    expect(store.query({ type: 'mqtt-message' })).toHaveLength(records.filter((r) => r.type === 'mqtt-message').length + 40);
  });

  it('snapshots, restores and resets to the seed', () => {
    const store = new EventLogStore(records);
    const trap = firstOf('snmp-trap');
    const seedJson = JSON.stringify(store.snapshot());
    store.updatePayload(trap._id, { text: 'changed' });
    store.add(bare('ffffffffffffffffffffffff', 1));
    const saved = store.snapshot();
    store.reset();
    expect(JSON.stringify(store.snapshot())).toBe(seedJson);
    expect(store.get('ffffffffffffffffffffffff')).toBeUndefined();
    expect(store.get(trap._id)).toEqual(trap);
    expect(store.query({ filter: { _id: 'ffffffffffffffffffffffff' } })).toEqual([]);
    store.restore(saved);
    expect(store.size).toBe(301);
    expect((store.get(trap._id) as SnmpTrapRecord).payload.text).toBe('changed');
    expect(() => store.restore([bare('000000000000000000000001', 1), bare('000000000000000000000001', 2)])).toThrow(/Two event log records have the _id/);
    expect(store.size).toBe(301);
  });
});
