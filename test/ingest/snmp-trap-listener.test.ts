import dgram from 'node:dgram';
import { once } from 'node:events';
import snmp, { type RawVarbind, type TrapOptions } from 'net-snmp';
import { afterEach, describe, expect, it } from 'vitest';
import { createManualClock } from '../../src/shared/clock.js';
import type { IngestDrop, IngestHandle } from '../../src/ingest/delivery.js';
import { startSnmpTrapListener } from '../../src/ingest/snmp-trap-listener.js';
import { createSpecValidator, loadSpec, type EventLogRecord, type SnmpTrapRecord } from '../../src/spec/index.js';
import { createCollector } from '../helpers/collector.js';

const validator = createSpecValidator(await loadSpec());
const limits = { snmpPacketBytes: 4096 };
const open: IngestHandle[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((h) => h.close()));
});

async function start(extra: { community?: string; sinkThrows?: boolean } = {}) {
  const records = createCollector<EventLogRecord>();
  const drops = createCollector<IngestDrop>();
  const clock = createManualClock(1_756_500_000_000);
  let n = 0;
  const handle = await startSnmpTrapListener({
    port: 0,
    clock,
    limits,
    ids: () => `5867948233835d9661c5${(n++).toString(16).padStart(4, '0')}`,
    community: extra.community,
    sink: extra.sinkThrows
      ? () => {
          throw new Error('sink is down');
        }
      : records.push,
    onDrop: drops.push,
  });
  open.push(handle);
  return { handle, records, drops, clock };
}

/** Sends one trap with net-snmp's own client and waits until it has left the socket. */
async function sendTrap(port: number, version: 1 | 2, community: string, typeOrOid: number | string, varbinds: RawVarbind[], options: TrapOptions = {}) {
  const session = snmp.createSession('127.0.0.1', community, { version: version === 1 ? snmp.Version1 : snmp.Version2c, trapPort: port });
  try {
    await new Promise<void>((resolve, reject) => session.trap(typeOrOid, varbinds, options, (error) => (error ? reject(error) : resolve())));
  } finally {
    session.close();
  }
}

const { ObjectType: O } = snmp;

describe('startSnmpTrapListener', () => {
  it('binds a free port when asked for port 0', async () => {
    const { handle } = await start();
    expect(handle.port).toBeGreaterThan(1024);
  });

  it('turns a v2c trap with varbinds of several types into a valid record', async () => {
    const { handle, records, clock } = await start();
    clock.set(1_756_600_000_000);
    await sendTrap(
      handle.port,
      2,
      'public',
      snmp.TrapType.LinkDown,
      [
        { oid: '1.3.6.1.2.1.2.2.1.1.3', type: O.Integer, value: 3 },
        { oid: '1.3.6.1.2.1.2.2.1.2.3', type: O.OctetString, value: 'ge-0/0/3' },
        { oid: '1.3.6.1.2.1.2.2.1.6.3', type: O.OctetString, value: Buffer.from([0x00, 0x1a, 0x2b, 0x3c, 0x4d, 0x5e]) },
        { oid: '1.3.6.1.2.1.2.2.1.10.3', type: O.Counter, value: 123_456 },
        { oid: '1.3.6.1.2.1.2.2.1.5.3', type: O.Gauge, value: 1_000_000_000 },
        { oid: '1.3.6.1.2.1.31.1.1.1.6.3', type: O.Counter64, value: Buffer.from('0000000100000000', 'hex') },
        { oid: '1.3.6.1.2.1.4.20.1.1.10.0.0.1', type: O.IpAddress, value: '10.0.0.1' },
        { oid: '1.3.6.1.2.1.1.2.0', type: O.OID, value: '1.3.6.1.4.1.8072.3.2.10' },
      ],
      { upTime: 4242 },
    );
    const [record] = (await records.until(1)) as SnmpTrapRecord[];
    expect(validator.validateNamed('EventLogRecord', record)).toEqual([]);
    expect(record).toMatchObject({
      _id: '5867948233835d9661c50000',
      type: 'snmp-trap',
      timestamp: 1_756_600_000_000,
      payload: {
        senderAddress: '127.0.0.1',
        trapOid: '1.3.6.1.6.3.1.1.5.3',
        text: 'linkDown from 127.0.0.1: ifIndex.3=3, ifDescr.3=ge-0/0/3, 1.3.6.1.2.1.2.2.1.6.3=00:1a:2b:3c:4d:5e, 1.3.6.1.2.1.2.2.1.10.3=123456, 1.3.6.1.2.1.2.2.1.5.3=1000000000, 1.3.6.1.2.1.31.1.1.1.6.3=4294967296 (+2 more)',
      },
      entity: { entityType: 1, entityName: '127.0.0.1' },
    });
    expect(record?.payload.bindings).toEqual([
      { oid: '1.3.6.1.2.1.1.3.0', type: 'TimeTicks', value: 4242 },
      { oid: '1.3.6.1.2.1.2.2.1.1.3', type: 'Integer', value: 3 },
      { oid: '1.3.6.1.2.1.2.2.1.2.3', type: 'OctetString', value: 'ge-0/0/3' },
      { oid: '1.3.6.1.2.1.2.2.1.6.3', type: 'OctetString', value: '00:1a:2b:3c:4d:5e' },
      { oid: '1.3.6.1.2.1.2.2.1.10.3', type: 'Counter32', value: 123_456 },
      { oid: '1.3.6.1.2.1.2.2.1.5.3', type: 'Gauge32', value: 1_000_000_000 },
      { oid: '1.3.6.1.2.1.31.1.1.1.6.3', type: 'Counter64', value: '4294967296' },
      { oid: '1.3.6.1.2.1.4.20.1.1.10.0.0.1', type: 'IpAddress', value: '10.0.0.1' },
      { oid: '1.3.6.1.2.1.1.2.0', type: 'ObjectIdentifier', value: '1.3.6.1.4.1.8072.3.2.10' },
    ]);
  });

  it('turns v1 generic and enterprise-specific traps into valid records, sender from agent-addr', async () => {
    const { handle, records } = await start();
    await sendTrap(handle.port, 1, 'public', snmp.TrapType.ColdStart, [], { agentAddr: '192.0.2.44', upTime: 10 });
    await sendTrap(handle.port, 1, 'public', '1.3.6.1.4.1.2000.7', [{ oid: '1.3.6.1.4.1.2000.1.1', type: O.OctetString, value: 'fan 2 failed' }], { agentAddr: '192.0.2.45', upTime: 20 });
    const got = (await records.until(2)) as SnmpTrapRecord[];
    for (const r of got) expect(validator.validateNamed('EventLogRecord', r)).toEqual([]);
    const byOid = new Map(got.map((r) => [r.payload.trapOid, r]));
    expect(byOid.get('1.3.6.1.6.3.1.1.5.1')?.payload).toMatchObject({ senderAddress: '192.0.2.44', text: 'coldStart from 192.0.2.44' });
    expect(byOid.get('1.3.6.1.4.1.2000.0.7')?.payload).toMatchObject({
      senderAddress: '192.0.2.45',
      text: '1.3.6.1.4.1.2000.0.7 from 192.0.2.45: 1.3.6.1.4.1.2000.1.1=fan 2 failed',
      bindings: [
        { oid: '1.3.6.1.2.1.1.3.0', type: 'TimeTicks', value: 20 },
        { oid: '1.3.6.1.4.1.2000.1.1', type: 'OctetString', value: 'fan 2 failed' },
        { oid: '1.3.6.1.6.3.1.1.4.3.0', type: 'ObjectIdentifier', value: '1.3.6.1.4.1.2000' },
      ],
    });
  });

  it('drops and counts traps of another community and undecodable packets, and keeps going', async () => {
    const { handle, records, drops } = await start({ community: 'monitor' });
    await sendTrap(handle.port, 2, 'public', snmp.TrapType.ColdStart, []);
    const garbage = dgram.createSocket('udp4');
    await new Promise<void>((resolve, reject) => garbage.send(Buffer.from('not snmp at all'), handle.port, '127.0.0.1', (e) => (e ? reject(e) : resolve())));
    garbage.close();
    expect((await drops.until(2)).map((d) => d.reason).sort()).toEqual(['malformed', 'unknown-community']);
    // The community must never be quoted back.
    expect(JSON.stringify(drops.items)).not.toContain('public');

    await sendTrap(handle.port, 2, 'monitor', snmp.TrapType.WarmStart, []);
    expect((await records.until(1))[0]?.payload).toMatchObject({ trapOid: '1.3.6.1.6.3.1.1.5.2' });
    expect(handle.stats()).toEqual({ delivered: 1, pending: 0, dropped: 2, droppedByReason: { 'unknown-community': 1, malformed: 1 } });
  });

  it('drops and counts a trap it cannot convert (a Boolean varbind has no SMI type)', async () => {
    const { handle, records, drops } = await start();
    await sendTrap(handle.port, 2, 'public', snmp.TrapType.LinkUp, [{ oid: '1.3.6.1.4.1.9.1', type: O.Boolean, value: true }]);
    const [drop] = await drops.until(1);
    expect(drop).toMatchObject({ reason: 'not-convertible', from: '127.0.0.1' });
    expect(drop?.detail).toMatch(/not an SMI type/);
    await sendTrap(handle.port, 2, 'public', snmp.TrapType.LinkUp, []);
    expect((await records.until(1)).length).toBe(1);
    expect(handle.stats()).toMatchObject({ delivered: 1, dropped: 1 });
  });

  it('counts a throwing sink as a drop without stopping', async () => {
    const { handle, drops } = await start({ sinkThrows: true });
    await sendTrap(handle.port, 2, 'public', snmp.TrapType.LinkUp, []);
    await sendTrap(handle.port, 2, 'public', snmp.TrapType.LinkUp, []);
    expect((await drops.until(2)).map((d) => d.reason)).toEqual(['sink-failed', 'sink-failed']);
  });

  it('refuses to start on a port in use, and frees its port on close', async () => {
    const { handle } = await start();
    await expect(startSnmpTrapListener({ port: handle.port, sink: () => {}, clock: createManualClock(), limits })).rejects.toThrow(/EADDRINUSE/);
    await handle.close();
    await handle.close();
    const again = dgram.createSocket('udp4');
    again.bind(handle.port, '127.0.0.1');
    await once(again, 'listening');
    again.close();
  });
});
