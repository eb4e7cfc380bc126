import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Notification as DecodedTrap, RawVarbind as DecodedVarbind } from 'net-snmp';
import { SNMP_TYPE_NAMES, snmpTrapToRecord } from '../../src/ingest/snmp-trap-to-record.js';
import { createSpecValidator, loadSpec, type Schema } from '../../src/spec/index.js';

const spec = await loadSpec();
const validator = createSpecValidator(spec);
const stamp = { id: '5867948233835d9661c56dc8', timestamp: 1_756_497_678_991 };

// ASN.1 tags, written out here rather than taken from the code under test.
const T = { Integer: 2, OctetString: 4, Null: 5, OID: 6, IpAddress: 0x40, Counter32: 0x41, Gauge32: 0x42, TimeTicks: 0x43, Opaque: 0x44, Counter64: 0x46, NoSuchObject: 0x80, Boolean: 1 };

function v2(varbinds: DecodedVarbind[], address = '192.0.2.17'): DecodedTrap {
  return { pdu: { type: 167, varbinds }, rinfo: { address } };
}
const upTime = { oid: '1.3.6.1.2.1.1.3.0', type: T.TimeTicks, value: 8_640_000 };
const trapOid = (oid: string) => ({ oid: '1.3.6.1.6.3.1.1.4.1.0', type: T.OID, value: oid });

function v1(fields: Partial<DecodedTrap['pdu']>, address = '198.51.100.9'): DecodedTrap {
  return { pdu: { type: 164, varbinds: [], enterprise: '1.3.6.1.4.1.9', agentAddr: '192.0.2.44', generic: 0, specific: 0, upTime: 500, ...fields }, rinfo: { address } };
}

function valid(record: unknown) {
  return validator.validateNamed('EventLogRecord', record);
}

describe('snmpTrapToRecord, SNMPv2c', () => {
  it('takes the trap OID from snmpTrapOID.0, keeps sysUpTime.0 and writes a readable line', () => {
    const record = snmpTrapToRecord(
      v2([
        upTime,
        trapOid('1.3.6.1.6.3.1.1.5.3'),
        { oid: '1.3.6.1.2.1.2.2.1.1.3', type: T.Integer, value: 3 },
        { oid: '1.3.6.1.2.1.2.2.1.2.3', type: T.OctetString, value: Buffer.from('ge-0/0/3') },
      ]),
      stamp,
    );
    expect(record).toMatchObject({
      _id: '5867948233835d9661c56dc8',
      type: 'snmp-trap',
      timestamp: 1_756_497_678_991,
      payload: {
        senderAddress: '192.0.2.17',
        trapOid: '1.3.6.1.6.3.1.1.5.3',
        bindings: [
          { oid: '1.3.6.1.2.1.1.3.0', type: 'TimeTicks', value: 8_640_000 },
          { oid: '1.3.6.1.2.1.2.2.1.1.3', type: 'Integer', value: 3 },
          { oid: '1.3.6.1.2.1.2.2.1.2.3', type: 'OctetString', value: 'ge-0/0/3' },
        ],
        text: 'linkDown from 192.0.2.17: ifIndex.3=3, ifDescr.3=ge-0/0/3',
      },
      entity: { entityType: 1, entityName: '192.0.2.17' },
    });
    expect(valid(record)).toEqual([]);
  });

  it('renders each SMI type the way the document describes', () => {
    const record = snmpTrapToRecord(
      v2([
        upTime,
        trapOid('1.3.6.1.4.1.8072.2.3.0.1'),
        { oid: '1.3.6.1.4.1.1.1', type: T.OctetString, value: Buffer.from('température élevée') },
        { oid: '1.3.6.1.4.1.1.2', type: T.OctetString, value: Buffer.from([0x00, 0x1a, 0x2b, 0xff]) },
        { oid: '1.3.6.1.4.1.1.3', type: T.OctetString, value: Buffer.from([0xc3, 0x28]) }, // invalid UTF-8
        { oid: '1.3.6.1.4.1.1.4', type: T.Counter64, value: Buffer.from('00ffffffffffffffff', 'hex') },
        { oid: '1.3.6.1.4.1.1.5', type: T.Counter64, value: Buffer.from([0x05]) },
        { oid: '1.3.6.1.4.1.1.6', type: T.IpAddress, value: '10.0.0.1' },
        { oid: '1.3.6.1.4.1.1.7', type: T.OID, value: '1.3.6.1.2.1.1' },
        { oid: '1.3.6.1.4.1.1.8', type: T.Null, value: null },
        { oid: '1.3.6.1.4.1.1.9', type: T.Counter32, value: 4_294_967_295 },
        { oid: '1.3.6.1.4.1.1.10', type: T.Gauge32, value: 7 },
        { oid: '1.3.6.1.4.1.1.11', type: T.Opaque, value: Buffer.from([0x9f, 0x78, 0x04]) },
        { oid: '1.3.6.1.4.1.1.12', type: T.NoSuchObject, value: null },
        { oid: '1.3.6.1.4.1.1.13', type: T.Integer, value: -5 },
      ]),
      stamp,
    );
    expect(record.payload.bindings.slice(1)).toEqual([
      { oid: '1.3.6.1.4.1.1.1', type: 'OctetString', value: 'température élevée' },
      { oid: '1.3.6.1.4.1.1.2', type: 'OctetString', value: '00:1a:2b:ff' },
      { oid: '1.3.6.1.4.1.1.3', type: 'OctetString', value: 'c3:28' },
      { oid: '1.3.6.1.4.1.1.4', type: 'Counter64', value: '18446744073709551615' },
      { oid: '1.3.6.1.4.1.1.5', type: 'Counter64', value: '5' },
      { oid: '1.3.6.1.4.1.1.6', type: 'IpAddress', value: '10.0.0.1' },
      { oid: '1.3.6.1.4.1.1.7', type: 'ObjectIdentifier', value: '1.3.6.1.2.1.1' },
      { oid: '1.3.6.1.4.1.1.8', type: 'Null', value: null },
      { oid: '1.3.6.1.4.1.1.9', type: 'Counter32', value: 4_294_967_295 },
      { oid: '1.3.6.1.4.1.1.10', type: 'Gauge32', value: 7 },
      { oid: '1.3.6.1.4.1.1.11', type: 'Opaque', value: '9f:78:04' },
      { oid: '1.3.6.1.4.1.1.12', type: 'NoSuchObject', value: null },
      { oid: '1.3.6.1.4.1.1.13', type: 'Integer', value: -5 },
    ]);
    expect(record.payload.text).toMatch(/^1\.3\.6\.1\.4\.1\.8072\.2\.3\.0\.1 from 192\.0\.2\.17: .* \(\+7 more\)$/);
    expect(valid(record)).toEqual([]);
  });

  it('names the original agent when a proxy sent snmpTrapAddress.0', () => {
    const record = snmpTrapToRecord(
      v2([upTime, trapOid('1.3.6.1.6.3.1.1.5.1'), { oid: '1.3.6.1.6.3.18.1.3.0', type: T.IpAddress, value: '203.0.113.5' }], '127.0.0.1'),
      stamp,
    );
    expect(record.payload.senderAddress).toBe('203.0.113.5');
    expect(record.payload.text).toBe('coldStart from 203.0.113.5');
  });
});

describe('snmpTrapToRecord, SNMPv1 (RFC 3584 section 3.1)', () => {
  const generic: [number, string, string][] = [
    [0, '1.3.6.1.6.3.1.1.5.1', 'coldStart'],
    [1, '1.3.6.1.6.3.1.1.5.2', 'warmStart'],
    [2, '1.3.6.1.6.3.1.1.5.3', 'linkDown'],
    [3, '1.3.6.1.6.3.1.1.5.4', 'linkUp'],
    [4, '1.3.6.1.6.3.1.1.5.5', 'authenticationFailure'],
    [5, '1.3.6.1.6.3.1.1.5.6', 'egpNeighborLoss'],
  ];
  for (const [number, oid, name] of generic) {
    it(`maps generic trap ${number} to ${name}`, () => {
      const record = snmpTrapToRecord(v1({ generic: number }), stamp);
      expect(record.payload.trapOid).toBe(oid);
      expect(record.payload.text).toBe(`${name} from 192.0.2.44`);
    });
  }

  it('maps enterpriseSpecific to enterprise.0.specific, with sysUpTime.0 first and snmpTrapEnterprise.0 last', () => {
    const record = snmpTrapToRecord(
      v1({ generic: 6, specific: 17, enterprise: '1.3.6.1.4.1.2000', varbinds: [{ oid: '1.3.6.1.4.1.2000.1', type: T.Integer, value: 1 }] }),
      stamp,
    );
    expect(record.payload.trapOid).toBe('1.3.6.1.4.1.2000.0.17');
    expect(record.payload.bindings).toEqual([
      { oid: '1.3.6.1.2.1.1.3.0', type: 'TimeTicks', value: 500 },
      { oid: '1.3.6.1.4.1.2000.1', type: 'Integer', value: 1 },
      { oid: '1.3.6.1.6.3.1.1.4.3.0', type: 'ObjectIdentifier', value: '1.3.6.1.4.1.2000' },
    ]);
    expect(valid(record)).toEqual([]);
  });

  it('uses agent-addr as the sender, or the UDP source when agent-addr is 0.0.0.0', () => {
    expect(snmpTrapToRecord(v1({}), stamp).payload.senderAddress).toBe('192.0.2.44');
    expect(snmpTrapToRecord(v1({ agentAddr: '0.0.0.0' }), stamp).payload.senderAddress).toBe('198.51.100.9');
  });
});

describe('snmpTrapToRecord, identities', () => {
  it('derives agentId and entityId from the sender: stable, distinct, ObjectId-shaped', () => {
    const a1 = snmpTrapToRecord(v1({ agentAddr: '192.0.2.1' }), stamp);
    const a2 = snmpTrapToRecord(v1({ agentAddr: '192.0.2.1', generic: 3 }), { id: '5867948233835d9661c56dc9', timestamp: 1 });
    const b = snmpTrapToRecord(v1({ agentAddr: '192.0.2.2' }), stamp);
    expect(a2.agentId).toBe(a1.agentId);
    expect(a2.entity.entityId).toBe(a1.entity.entityId);
    expect(b.agentId).not.toBe(a1.agentId);
    expect(b.entity.entityId).not.toBe(a1.entity.entityId);
    for (const id of [a1.agentId, a1.entity.entityId]) expect(id).toMatch(/^[0-9a-f]{24}$/);
  });
});

describe('snmpTrapToRecord refuses what it cannot express', () => {
  const cases: [string, DecodedTrap][] = [
    ['a v2 trap without snmpTrapOID.0', v2([upTime])],
    ['snmpTrapOID.0 that is not an OID', v2([upTime, { oid: '1.3.6.1.6.3.1.1.4.1.0', type: T.OctetString, value: Buffer.from('x') }])],
    ['a Boolean varbind (not an SMI type)', v2([upTime, trapOid('1.3.6.1.6.3.1.1.5.1'), { oid: '1.3.6.1.4.1.1', type: T.Boolean, value: true }])],
    ['an Integer outside 32 bits', v2([upTime, trapOid('1.3.6.1.6.3.1.1.5.1'), { oid: '1.3.6.1.4.1.1', type: T.Integer, value: 2 ** 31 }])],
    ['a generic-trap outside 0..6', v1({ generic: 7 })],
    ['a PDU that is not a notification', { pdu: { type: 160, varbinds: [] }, rinfo: { address: '127.0.0.1' } }],
  ];
  for (const [what, trap] of cases) {
    it(`throws for ${what}`, () => {
      expect(() => snmpTrapToRecord(trap, stamp)).toThrow(expect.objectContaining({ name: 'NotConvertibleError' }));
    });
  }
});

describe('the SNMP type names', () => {
  it('are exactly the document enum of SnmpVarbind.type', () => {
    const schema = spec.document.components?.schemas?.SnmpVarbind as Schema;
    const documented = ((schema.properties?.type as Schema).enum ?? []) as string[];
    expect([...SNMP_TYPE_NAMES.values()].sort()).toEqual([...documented].sort());
  });

  it('every trap built from arbitrary well-typed varbinds validates against the document', () => {
    const oid = fc.array(fc.integer({ min: 0, max: 100_000 }), { minLength: 2, maxLength: 12 }).map((arcs) => arcs.join('.'));
    const bytes = fc.uint8Array({ maxLength: 40 }).map((a) => Buffer.from(a));
    const varbind: fc.Arbitrary<DecodedVarbind> = fc.oneof(
      fc.record({ oid, type: fc.constant(T.Integer), value: fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 }) }),
      fc.record({ oid, type: fc.constantFrom(T.Counter32, T.Gauge32, T.TimeTicks), value: fc.integer({ min: 0, max: 2 ** 32 - 1 }) }),
      fc.record({ oid, type: fc.constantFrom(T.OctetString, T.Opaque), value: fc.oneof(bytes, fc.string().map((s) => Buffer.from(s))) }),
      fc.record({ oid, type: fc.constant(T.Counter64), value: fc.bigInt({ min: 0n, max: 2n ** 64n - 1n }).map((n) => Buffer.from(n.toString(16).padStart(16, '0'), 'hex')) }),
      fc.record({ oid, type: fc.constant(T.OID), value: oid }),
      fc.record({ oid, type: fc.constant(T.IpAddress), value: fc.ipV4() }),
      fc.record({ oid, type: fc.constantFrom(T.Null, T.NoSuchObject, 0x81, 0x82), value: fc.constant(null) }),
    );
    fc.assert(
      fc.property(fc.array(varbind, { maxLength: 12 }), oid, fc.ipV4(), (varbinds, trap, address) => {
        const record = snmpTrapToRecord(v2([upTime, trapOid(trap), ...varbinds], address), stamp);
        expect(valid(record)).toEqual([]);
        expect(record.payload.bindings).toHaveLength(varbinds.length + 1);
      }),
      { numRuns: 200 },
    );
  });
});
