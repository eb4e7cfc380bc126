import type { Faker } from '@faker-js/faker';
// The English entry point alone: the package's main one loads every locale, which took most
// of the fake's start-up (about half a second) for data that only ever uses English.
import { faker as english } from '@faker-js/faker/locale/en';
import type { EventLogRecord, MqttMessagePayload, SnmpVarbind } from '../spec/types.js';
import { deepFreeze } from '../shared/deep-freeze.js';
import { createObjectIdGenerator } from '../shared/object-id.js';
import { seededFaker } from '../shared/seeded-random.js';
import { inventory, type Device, type Sensor } from './inventory.js';
import { trapKindsFor, TRAP_OIDS } from './snmp-traps.js';

export const DEFAULT_SEED = 42;
export const DEFAULT_EVENT_COUNT = 1_000;
/** The end of the default seed window, 2025-09-01T00:00:00Z: fixed, so seed data is repeatable (an anchor moves it, see anchor.ts). */
export const DEFAULT_END_TIME = Date.UTC(2025, 8, 1);
/** Seven days. */
export const DEFAULT_SPAN_MS = 7 * 24 * 60 * 60 * 1000;
/** The share of SNMP traps among generated records; the rest are MQTT messages. */
const SNMP_SHARE = 0.7;
const SYS_UP_TIME_OID = '1.3.6.1.2.1.1.3.0';
const SNMP_TRAP_OID_OID = '1.3.6.1.6.3.1.1.4.1.0';

/** The same options always give byte-identical records; defaults DEFAULT_SEED, DEFAULT_EVENT_COUNT, DEFAULT_END_TIME (last possible timestamp, ms) and DEFAULT_SPAN_MS (the window before it). */
export interface GenerateEventsOptions {
  readonly seed?: number;
  readonly count?: number;
  readonly endTime?: number;
  readonly spanMs?: number;
}

const DAY_MS = 86_400_000;

/** The faker of the seed generators: English words (names, logins), every value from `seed`. */
export const englishFaker = (seed: number): Faker => seededFaker(seed, english.rawDefinitions);

/** Checks the options shared by the seed generators; throws a RangeError naming the bad one. */
export function checkWindow(options: { count: number; endTime: number; spanMs: number; seed: number }): void {
  const { count, endTime, spanMs, seed } = options;
  if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be an integer, not ${seed}`);
  if (!Number.isSafeInteger(count) || count < 0) throw new RangeError(`count must be a non-negative integer, not ${count}`);
  if (!Number.isSafeInteger(spanMs) || spanMs < 0) throw new RangeError(`spanMs must be a non-negative integer, not ${spanMs}`);
  if (!Number.isSafeInteger(endTime) || endTime < spanMs) {
    throw new RangeError(`endTime must be an integer timestamp in ms, at least spanMs (${spanMs}), not ${endTime}`);
  }
}

/** `count` timestamps over [endTime - spanMs, endTime], in order, the i-th at a random point of the i-th of `count` equal slices. */
export function spreadTimestamps(faker: Faker, count: number, endTime: number, spanMs: number): Float64Array {
  const start = endTime - spanMs;
  const slice = count === 0 ? 0 : spanMs / count;
  const out = new Float64Array(count);
  for (let i = 0; i < count; i++) out[i] = Math.min(endTime, start + Math.floor((i + faker.number.float()) * slice));
  return out;
}

const round1 = (x: number) => Math.round(x * 10) / 10;

/**
 * What each kind of sensor publishes: JSON readings on plain topics (QoS 0, not retained),
 * state topics (door, UPS) retained at QoS 1, alarms at QoS 1.
 */
const READINGS: Readonly<Record<Sensor['kind'], (faker: Faker) => { body: object; qos: 0 | 1; retain: boolean }>> = {
  temperature: (faker) => {
    const alarm = faker.number.int(49) === 0;
    const celsius = round1(alarm ? faker.number.float({ min: 35, max: 45 }) : faker.number.float({ min: 19, max: 29 }));
    return { body: alarm ? { celsius, threshold: 35, alarm: true } : { celsius }, qos: alarm ? 1 : 0, retain: false };
  },
  humidity: (faker) => ({ body: { percent: round1(faker.number.float({ min: 35, max: 60 })) }, qos: 0, retain: false }),
  power: (faker) => {
    const watts = faker.number.int({ min: 1200, max: 4200 });
    return { body: { watts, amps: round1(watts / 230) }, qos: 0, retain: false };
  },
  door: (faker) => ({ body: { state: faker.helpers.arrayElement(['open', 'closed']) }, qos: 1, retain: true }),
  ups: (faker) => {
    const onBattery = faker.number.int(19) === 0;
    const batteryPercent = onBattery ? faker.number.int({ min: 40, max: 99 }) : 100;
    return { body: { onBattery, batteryPercent, runtimeMinutes: Math.round(batteryPercent * 0.6) }, qos: 1, retain: true };
  },
};

/**
 * Deterministic event log records, SNMP traps from the inventory's devices and MQTT messages from
 * its sensors, in (timestamp, _id) order; sub-objects many records share are shared, to keep a million small.
 */
export const generateEvents = (options: GenerateEventsOptions = {}): EventLogRecord[] => planEvents(options).records();

/**
 * The ids (and timestamp span) of `generateEvents`' records at the cost of drawing their
 * timestamps, and the records themselves on the first call of `records` (later calls return the
 * same ones), their timestamps moved by an anchor's `shiftMs`: fixtures are checked against the
 * ids at start, the records made when first needed.
 */
export type EventPlan = ReturnType<typeof planEvents>;

export function planEvents(options: GenerateEventsOptions = {}) {
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
  const shareText = (text: string): string => share(`\0${text}`, text);
  const shareVarbind = (v: SnmpVarbind): SnmpVarbind => (Object.isFrozen(v) ? v : share(`${v.oid} ${v.type} ${v.value}`, v));

  const times = spreadTimestamps(faker, count, endTime, spanMs);
  const ids = Array.from(times, (timestamp) => nextId(timestamp));
  // The draws go on from one record to the next, so the records are made once, in order.
  let made: EventLogRecord[] | undefined;
  return {
    ids,
    span: count === 0 ? undefined : { first: times[0] as number, last: times[count - 1] as number },
    records: (shiftMs = 0) => (made ??= makeRecords(shiftMs)),
  };

  function makeRecords(shiftMs: number): EventLogRecord[] {
    const records = new Array<EventLogRecord>(count);
    for (let i = 0; i < count; i++) {
      const timestamp = times[i] as number;
      const _id = ids[i] as string;
      if (faker.number.float() < SNMP_SHARE) {
        const device = faker.helpers.arrayElement(inventory.devices);
        const kind = faker.helpers.weightedArrayElement(kinds.get(device) ?? []);
        const upTime = Math.floor((timestamp - (bootedAt.get(device) ?? start)) / 10);
        const draft = kind.build({ faker, device, upTime, operators, strangers });
        const trapOid = TRAP_OIDS[kind.name];
        const sysUpTime = restarts.has(trapOid) ? faker.number.int({ min: 2_000, max: 15_000 }) : upTime;
        records[i] = {
          _id,
          type: 'snmp-trap',
          agentId: device.agentId,
          timestamp: timestamp + shiftMs,
          payload: {
            senderAddress: device.ip,
            trapOid,
            text: shareText(draft.text),
            bindings: [
              { oid: SYS_UP_TIME_OID, type: 'TimeTicks', value: sysUpTime },
              trapOidBindings.get(trapOid) as SnmpVarbind,
              ...draft.bindings.map(shareVarbind),
            ],
          },
          entity: draft.entity ?? device.entity,
        };
      } else {
        const sensor = faker.helpers.arrayElement(inventory.sensors);
        const { body, qos, retain } = READINGS[sensor.kind](faker);
        const payload: MqttMessagePayload = { topic: sensor.topic, message: JSON.stringify(body), qos, retain };
        records[i] = {
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
