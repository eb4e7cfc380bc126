import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_END_TIME, DEFAULT_SPAN_MS, generateEvents, planEvents } from '../../src/seed/generate-events.js';
import { inventory } from '../../src/seed/inventory.js';
import { TRAP_OIDS } from '../../src/seed/snmp-traps.js';
import { createSpecValidator, loadSpec, type SpecValidator } from '../../src/spec/index.js';
import type { SnmpTrapRecord } from '../../src/spec/types.js';

const records = generateEvents();
const traps = records.filter((r): r is SnmpTrapRecord => r.type === 'snmp-trap');

describe('generateEvents', () => {
  let validator: SpecValidator;
  beforeAll(async () => {
    validator = createSpecValidator(await loadSpec());
  });

  it('is deterministic: the same options give byte-identical records, another seed others', () => {
    expect(records).toHaveLength(1000);
    expect(JSON.stringify(generateEvents())).toBe(JSON.stringify(records));
    const other = generateEvents({ seed: 7 });
    expect(other).toHaveLength(1000);
    expect(JSON.stringify(other)).not.toBe(JSON.stringify(records));
    expect(other[0]?._id).not.toBe(records[0]?._id);
  });

  it('knows the ids before it makes the records, and makes them once', () => {
    const plan = planEvents();
    expect(plan.ids).toEqual(records.map((r) => r._id));
    expect(JSON.stringify(plan.records())).toBe(JSON.stringify(records));
    expect(plan.records()).toBe(plan.records());
  });

  it('makes records that conform to the document', () => {
    for (const r of [...records, ...generateEvents({ seed: 3, count: 300 })]) {
      expect(validator.validateNamed('EventLogRecord', r), r._id).toEqual([]);
    }
  });

  it('spreads timestamps over the window in order, with ObjectIds that repeat and sort with time', () => {
    const start = DEFAULT_END_TIME - DEFAULT_SPAN_MS;
    const ids = new Set<string>();
    records.forEach((r, i) => {
      expect(r.timestamp).toBeGreaterThanOrEqual(start);
      expect(r.timestamp).toBeLessThanOrEqual(DEFAULT_END_TIME);
      expect(r._id).toMatch(/^[0-9a-f]{24}$/);
      expect(parseInt(r._id.slice(0, 8), 16)).toBe(Math.floor(r.timestamp / 1000));
      const previous = records[i - 1];
      if (previous) {
        expect(r.timestamp).toBeGreaterThanOrEqual(previous.timestamp);
        expect(r._id > previous._id).toBe(true);
      }
      ids.add(r._id);
    });
    expect(ids.size).toBe(records.length);
    expect(records[0]!.timestamp - start).toBeLessThan(DEFAULT_SPAN_MS / 100);
    expect(DEFAULT_END_TIME - records[records.length - 1]!.timestamp).toBeLessThan(DEFAULT_SPAN_MS / 100);
    const now = Date.UTC(2030, 0, 1);
    const live = generateEvents({ count: 10, endTime: now, spanMs: 60_000 });
    for (const r of live) expect(r.timestamp).toBeGreaterThanOrEqual(now - 60_000);
  });

  it('sends standard and vendor traps from the inventory devices, with their varbinds', () => {
    const oids = new Set(traps.map((t) => t.payload.trapOid));
    for (const oid of [TRAP_OIDS.coldStart, TRAP_OIDS.warmStart, TRAP_OIDS.linkDown, TRAP_OIDS.linkUp, TRAP_OIDS.authenticationFailure]) {
      expect(oids).toContain(oid);
    }
    expect([...oids].some((o) => o.startsWith('1.3.6.1.4.1.9.'))).toBe(true);
    expect([...oids].some((o) => o.startsWith('1.3.6.1.4.1.2636.'))).toBe(true);
    for (const t of traps) {
      const device = inventory.devices.find((d) => d.agentId === t.agentId);
      expect(device, t._id).toBeDefined();
      expect(t.payload.senderAddress).toBe(device!.ip);
      const [upTime, trapOid] = t.payload.bindings;
      expect(upTime).toMatchObject({ oid: '1.3.6.1.2.1.1.3.0', type: 'TimeTicks' });
      expect(trapOid).toEqual({ oid: '1.3.6.1.6.3.1.1.4.1.0', type: 'ObjectIdentifier', value: t.payload.trapOid });
      expect(t.payload.text.length).toBeGreaterThan(10);
      if (t.payload.trapOid === TRAP_OIDS.linkDown || t.payload.trapOid === TRAP_OIDS.linkUp) {
        const ifIndex = t.payload.bindings.find((b) => b.oid.startsWith('1.3.6.1.2.1.2.2.1.1.'));
        const port = device!.interfaces.find((p) => p.ifIndex === ifIndex?.value);
        expect(t.entity).toEqual(port?.entity);
        expect(t.entity.entityType).toBe(3);
        const oper = t.payload.bindings.find((b) => b.oid === `1.3.6.1.2.1.2.2.1.8.${port!.ifIndex}`);
        expect(oper?.value).toBe(t.payload.trapOid === TRAP_OIDS.linkUp ? 1 : 2);
        expect(t.payload.text).toContain(port!.ifDescr);
      } else {
        expect(t.entity).toEqual(device!.entity);
      }
    }
  });

  it('publishes MQTT sensor readings as JSON on the sensors topics', () => {
    const messages = records.filter((r) => r.type === 'mqtt-message');
    expect(messages.length).toBeGreaterThan(200);
    expect(traps.length).toBeGreaterThan(messages.length);
    for (const m of messages) {
      const sensor = inventory.sensors.find((s) => s.agentId === m.agentId);
      expect(m.payload.topic).toBe(sensor?.topic);
      expect(m.entity).toEqual(sensor?.entity);
      expect(m.entity.entityType).toBe(2);
      expect(typeof JSON.parse(m.payload.message)).toBe('object');
    }
    expect(new Set(messages.map((m) => m.payload.qos))).toEqual(new Set([0, 1]));
  });

  it('refuses options that make no sense', () => {
    expect(generateEvents({ count: 0 })).toEqual([]);
    expect(() => generateEvents({ count: -1 })).toThrow(/count/);
    expect(() => generateEvents({ count: 1.5 })).toThrow(/count/);
    expect(() => generateEvents({ seed: Number.NaN })).toThrow(/seed/);
    expect(() => generateEvents({ endTime: 5, spanMs: 10 })).toThrow(/endTime/);
  });
});
