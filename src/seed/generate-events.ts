import type { EventLogRecord, SnmpVarbind } from '../spec/types.js';
import { deepFreeze } from '../shared/deep-freeze.js';
import { createObjectIdGenerator } from '../shared/object-id.js';
import { inventory, type Device } from './inventory.js';
import { sensorMessage } from './mqtt-messages.js';
import { checkWindow, englishFaker, spreadTimestamps } from './draws.js';
import { SNMP_TRAP_OID_OID, SYS_UP_TIME_OID, trapKindsFor, TRAP_OIDS, type TrapContext } from './snmp-traps.js';

export const DEFAULT_SEED = 42;
export const DEFAULT_EVENT_COUNT = 1_000;
/** The end of the default seed window, 2025-09-01T00:00:00Z: fixed, so seed data is repeatable (an anchor moves it, see anchor.ts). */
export const DEFAULT_END_TIME = Date.UTC(2025, 8, 1);
/** Seven days. */
export const DEFAULT_SPAN_MS = 7 * 24 * 60 * 60 * 1000;
/** The share of SNMP traps among generated records; the rest are MQTT messages. */
const SNMP_SHARE = 0.7;

export interface GenerateEventsOptions {
  /** Default DEFAULT_SEED. The same options always give byte-identical records. */
  readonly seed?: number;
  /** Default DEFAULT_EVENT_COUNT. */
  readonly count?: number;
  /** Last possible timestamp, ms; default DEFAULT_END_TIME (pass Date.now() for live-looking data). */
  readonly endTime?: number;
  /** Length of the window that ends at endTime; default DEFAULT_SPAN_MS. */
  readonly spanMs?: number;
}

const DAY_MS = 86_400_000;

/**
 * Deterministic event log records, SNMP traps from the inventory's devices and MQTT messages
 * from its sensors, in (timestamp, _id) order. Ids are ObjectIds whose machine bytes come
 * from the seed, so they repeat with the seed and sort with time. Sub-objects that many
 * records share (entities, fixed varbinds) are shared, to keep a million records small.
 */
export function generateEvents(options: GenerateEventsOptions = {}): EventLogRecord[] {
  return planEvents(options).records();
}

/** The records' ids, known at once, and the records, made on the first call of `records`. */
export interface EventPlan {
  readonly ids: readonly string[];
  /** The oldest and newest timestamps of the records (undefined without records). */
  readonly span: { readonly first: number; readonly last: number } | undefined;
  /**
   * The records, made on the first call (later calls return the same ones), their timestamps
   * moved by `shiftMs` (an anchor's shift: ids and everything else stay as generated).
   */
  records(shiftMs?: number): EventLogRecord[];
}

/**
 * The ids of `generateEvents`' records at the cost of drawing their timestamps, and the
 * records themselves later (the same ones, byte for byte): a server can check fixtures
 * against the ids when it starts and make the records when they are first needed.
 */
export function planEvents(options: GenerateEventsOptions = {}): EventPlan {
  const { seed = DEFAULT_SEED, count = DEFAULT_EVENT_COUNT, endTime = DEFAULT_END_TIME, spanMs = DEFAULT_SPAN_MS } = options;
  checkWindow({ seed, count, endTime, spanMs });
  const faker = englishFaker(seed);
  const machine = Uint8Array.from({ length: 5 }, () => faker.number.int(255));
  const nextId = createObjectIdGenerator(machine, faker.number.int(0x7fffff));
  const start = endTime - spanMs;
  const bootedAt = new Map<Device, number>(inventory.devices.map((d) => [d, start - faker.number.int({ min: DAY_MS, max: 120 * DAY_MS })]));
  const kinds = new Map(inventory.devices.map((d) => [d, trapKindsFor(d)]));
  const operators = ['admin', ...Array.from({ length: 5 }, () => faker.internet.username().toLowerCase())];
  const strangers = [...Array.from({ length: 4 }, () => faker.internet.ipv4({ cidrBlock: '203.0.113.0/24' })), '10.0.9.14', '10.0.9.15'];
  const trapOidBindings = new Map<string, SnmpVarbind>(
    Object.values(TRAP_OIDS).map((oid) => [oid, Object.freeze({ oid: SNMP_TRAP_OID_OID, type: 'ObjectIdentifier', value: oid } as const)]),
  );
  const restarts = new Set<string>([TRAP_OIDS.coldStart, TRAP_OIDS.warmStart]);
  // Texts, varbinds and MQTT payloads repeat a lot; sharing one frozen copy of each keeps a
  // million records in a few hundred MB.
  const shared = new Map<string, unknown>();
  const share = <T>(key: string, value: T): T => {
    const v = shared.get(key) as T | undefined;
    if (v !== undefined) return v;
    shared.set(key, deepFreeze(value));
    return value;
  };
  const texts = new Map<string, string>();
  const shareText = (text: string): string => texts.get(text) ?? (texts.set(text, text), text);
  const shareVarbind = (v: SnmpVarbind): SnmpVarbind => (Object.isFrozen(v) ? v : share(`${v.oid} ${v.type} ${v.value}`, v));

  const times = spreadTimestamps(faker, count, endTime, spanMs);
  const ids = Array.from(times, (timestamp) => nextId(timestamp));
  // The draws go on from one record to the next, so the records are made once, in order.
  let made: EventLogRecord[] | undefined;
  return {
    ids,
    span: count === 0 ? undefined : { first: times[0] as number, last: times[count - 1] as number },
    records: (shiftMs = 0) => (made ??= makeRecords(0, count, shiftMs)),
  };

  /** The records from index `from` up to `to`, drawn after those before them. */
  function makeRecords(from: number, to: number, shiftMs: number): EventLogRecord[] {
    const records = new Array<EventLogRecord>(to - from);
    for (let i = from; i < to; i++) {
      const timestamp = times[i] as number;
      const _id = ids[i] as string;
      if (faker.number.float() < SNMP_SHARE) {
        const device = faker.helpers.arrayElement(inventory.devices);
        const kind = faker.helpers.weightedArrayElement(kinds.get(device) ?? []);
        const upTime = Math.floor((timestamp - (bootedAt.get(device) ?? start)) / 10);
        const ctx: TrapContext = { faker, device, upTime, operators, strangers };
        const draft = kind.build(ctx);
        const sysUpTime = restarts.has(draft.trapOid) ? faker.number.int({ min: 2_000, max: 15_000 }) : upTime;
        records[i - from] = {
          _id,
          type: 'snmp-trap',
          agentId: device.agentId,
          timestamp: timestamp + shiftMs,
          payload: {
            senderAddress: device.ip,
            trapOid: draft.trapOid,
            text: shareText(draft.text),
            bindings: [
              { oid: SYS_UP_TIME_OID, type: 'TimeTicks', value: sysUpTime },
              trapOidBindings.get(draft.trapOid) as SnmpVarbind,
              ...draft.bindings.map(shareVarbind),
            ],
          },
          entity: draft.entity,
        };
      } else {
        const sensor = faker.helpers.arrayElement(inventory.sensors);
        const payload = sensorMessage(faker, sensor);
        records[i - from] = {
          _id,
          type: 'mqtt-message',
          agentId: sensor.agentId,
          timestamp: timestamp + shiftMs,
          payload: share(`${payload.topic} ${payload.message}`, payload),
          entity: sensor.entity,
        };
      }
    }
    return records;
  }
}
