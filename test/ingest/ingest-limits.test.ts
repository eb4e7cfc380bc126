// The limits of the SNMP listener and the MQTT broker of a running fake, as the control API
// document states them (x-ingest-limits), through real clients: what is over a limit is refused
// and counted, and the fake goes on answering HTTP and taking what is within.
import dgram from 'node:dgram';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { connectAsync } from 'mqtt';
import snmp from 'net-snmp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createFake, type Fake } from '../../src/fake/create-fake.js';
import { ingestLimits } from '../../src/spec/index.js';
import type { IngestCounts } from '../../src/spec/control-types.js';
import { controlSpec } from '../server/control/helpers.js';
import { basicOf, spec } from '../server/helpers.js';

const limits = ingestLimits(controlSpec.document);
let fake: Fake;
let controlUrl = '';
let baseUrl = '';
beforeAll(async () => {
  fake = await createFake({ spec, records: 10, docs: false, snmpPort: 0, mqttPort: 0 });
  ({ controlUrl, baseUrl } = await fake.listen());
});
afterAll(() => fake.close());

const counts = async (): Promise<IngestCounts> => (await fetch(`${controlUrl}/ingest`)).json() as Promise<IngestCounts>;
const answers = async () => (await fetch(`${baseUrl}/users/current`, { headers: basicOf('viewer') })).status;
const sensor = (clientId: string) => connectAsync(`mqtt://127.0.0.1:${fake.mqttPort}`, { clientId, reconnectPeriod: 0 }, false);

/** A TCP connection to the broker that sends nothing, and a promise of its close. */
async function silentConnection(): Promise<{ socket: Socket; closed: Promise<unknown> }> {
  const socket = connect(fake.mqttPort!, '127.0.0.1');
  const closed = once(socket, 'close');
  socket.on('error', () => {}); // a reset of a refused connection
  await once(socket, 'connect');
  return { socket, closed };
}

describe('the MQTT broker', () => {
  it('closes a connection that sends a message over x-ingest-limits.mqtt-packet-bytes, counts it as too-large, and goes on', async () => {
    const big = await sensor('big-sender');
    const closed = new Promise<void>((resolve) => big.once('close', () => resolve()));
    big.publish('sensors/dump', Buffer.alloc(limits.mqttPacketBytes + 1, 0x61), { qos: 0 });
    await closed;
    await vi.waitFor(async () => expect((await counts()).mqtt).toMatchObject({ dropped: 1, droppedByReason: { 'too-large': 1 } }), { timeout: 5000, interval: 50 });

    const small = await sensor('small-sender');
    await small.publishAsync('sensors/ok', Buffer.alloc(1000, 0x62), { qos: 1 });
    await small.endAsync();
    expect((await counts()).mqtt).toMatchObject({ delivered: 1, dropped: 1 });
    expect(await answers()).toBe(200);
  });

  it('holds at most x-ingest-limits.mqtt-connections connections: more are closed at once, HTTP still answers', async () => {
    const open = await Promise.all(Array.from({ length: limits.mqttConnections }, silentConnection));
    const extra = await silentConnection();
    await extra.closed; // refused by the broker, not by the machine
    expect(await answers()).toBe(200);

    for (const { socket } of open) socket.destroy();
    await Promise.all(open.map((o) => o.closed));
    const after = await sensor('after-the-crowd');
    await after.publishAsync('sensors/after', 'ok', { qos: 1 });
    await after.endAsync();
    expect(await answers()).toBe(200);
  }, 120_000); // a guard for a loaded machine, not a timing assertion
});

describe('the SNMP listener', () => {
  it('drops a datagram over x-ingest-limits.snmp-packet-bytes as too-large, and goes on', async () => {
    const socket = dgram.createSocket('udp4');
    await new Promise<void>((resolve, reject) => socket.send(Buffer.alloc(limits.snmpPacketBytes + 1, 0x30), fake.snmpPort!, '127.0.0.1', (e) => (e ? reject(e) : resolve())));
    socket.close();
    await vi.waitFor(async () => expect((await counts()).snmp).toMatchObject({ dropped: 1, droppedByReason: { 'too-large': 1 } }), { timeout: 5000, interval: 50 });

    const session = snmp.createSession('127.0.0.1', 'public', { version: snmp.Version2c, trapPort: fake.snmpPort });
    await new Promise<void>((resolve, reject) => session.trap(snmp.TrapType.LinkUp, [], {}, (e) => (e ? reject(e) : resolve())));
    session.close();
    await vi.waitFor(async () => expect((await counts()).snmp).toMatchObject({ delivered: 1, dropped: 1 }), { timeout: 5000, interval: 50 });
    expect(await answers()).toBe(200);
  });
});

