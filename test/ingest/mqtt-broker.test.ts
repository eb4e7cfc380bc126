import { once } from 'node:events';
import { connect as tcpConnect } from 'node:net';
import { connectAsync, type IClientOptions, type MqttClient } from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { createManualClock } from '../../src/shared/clock.js';
import type { IngestHandle } from '../../src/ingest/delivery.js';
import { startMqttBroker } from '../../src/ingest/mqtt-broker.js';
import { createSpecValidator, loadSpec, type EventLogRecord, type MqttMessageRecord } from '../../src/spec/index.js';
import { createCollector } from '../helpers/collector.js';

const validator = createSpecValidator(await loadSpec());
const limits = { mqttConnections: 10, mqttIdleSeconds: 1, mqttPacketBytes: 4096 };
const handles: IngestHandle[] = [];
const clients: MqttClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.endAsync(true)));
  await Promise.all(handles.splice(0).map((h) => h.close()));
});

async function start() {
  const records = createCollector<EventLogRecord>();
  const clock = createManualClock(1_756_500_000_000);
  let n = 0;
  const handle = await startMqttBroker({ port: 0, clock, limits, sink: records.push, ids: () => `5867948233835d9661c6${(n++).toString(16).padStart(4, '0')}` });
  handles.push(handle);
  return { handle, records, clock };
}

async function client(port: number, clientId: string, extra: IClientOptions = {}): Promise<MqttClient> {
  const c = await connectAsync(`mqtt://127.0.0.1:${port}`, { clientId, reconnectPeriod: 0, ...extra });
  clients.push(c);
  return c;
}

const asMqtt = (records: EventLogRecord[]) => records as MqttMessageRecord[];

describe('startMqttBroker', () => {
  it('listens on a free port when asked for port 0', async () => {
    const { handle } = await start();
    expect(handle.port).toBeGreaterThan(1024);
  });

  it('records text and binary messages at QoS 0, 1 and 2 as valid records', async () => {
    const { handle, records, clock } = await start();
    const sensor = await client(handle.port, 'rack-4-sensor');
    clock.set(1_756_600_000_000);
    await sensor.publishAsync('sensors/rack-4/temperature', '{"celsius":41.5}', { qos: 0 });
    await records.until(1);
    clock.advance(1000);
    await sensor.publishAsync('sensors/rack-4/raw', Buffer.from([0xff, 0x00, 0xfe, 0x01]), { qos: 1 });
    await records.until(2);
    await sensor.publishAsync('sensors/rack-4/état', 'température élevée', { qos: 2, retain: true });
    const got = asMqtt(await records.until(3));
    for (const r of got) expect(validator.validateNamed('EventLogRecord', r)).toEqual([]);
    expect(got[0]).toMatchObject({
      _id: '5867948233835d9661c60000',
      type: 'mqtt-message',
      timestamp: 1_756_600_000_000,
      payload: { topic: 'sensors/rack-4/temperature', message: '{"celsius":41.5}', qos: 0, retain: false },
      entity: { entityType: 2, entityName: 'rack-4-sensor' },
    });
    expect(got[1]).toMatchObject({ timestamp: 1_756_600_001_000, payload: { topic: 'sensors/rack-4/raw', message: '/wD+AQ==', qos: 1, retain: false } });
    expect(got[2]?.payload).toEqual({ topic: 'sensors/rack-4/état', message: 'température élevée', qos: 2, retain: true });
    expect(new Set(got.map((r) => r.agentId)).size).toBe(1);
    expect(new Set(got.map((r) => r.entity.entityId)).size).toBe(1);
  });

  it('derives agent and entity from the client id: stable across connections, distinct between clients', async () => {
    const { handle, records } = await start();
    const a = await client(handle.port, 'sensor-a');
    await a.publishAsync('t', 'one', { qos: 1 });
    await a.endAsync();
    const again = await client(handle.port, 'sensor-a');
    await again.publishAsync('t', 'two', { qos: 1 });
    const b = await client(handle.port, 'sensor-b');
    await b.publishAsync('t', 'three', { qos: 1 });
    const [r1, r2, r3] = asMqtt(await records.until(3));
    expect(r2?.agentId).toBe(r1?.agentId);
    expect(r2?.entity.entityId).toBe(r1?.entity.entityId);
    expect(r3?.agentId).not.toBe(r1?.agentId);
    expect(r3?.entity).toMatchObject({ entityName: 'sensor-b', entityType: 2 });
    for (const id of [r1?.agentId, r1?.entity.entityId]) expect(id).toMatch(/^[0-9a-f]{24}$/);
  });

  it('does not record retained replays or $SYS messages', async () => {
    const { handle, records } = await start();
    const publisher = await client(handle.port, 'publisher');
    await publisher.publishAsync('status/door', 'open', { qos: 1, retain: true });
    await records.until(1);

    const watcher = await client(handle.port, 'watcher');
    const seen = createCollector<string>();
    watcher.on('message', (topic) => seen.push(topic));
    await watcher.subscribeAsync(['status/#', '$SYS/#']); // makes the broker publish under $SYS
    await seen.waitFor((topics) => topics.includes('status/door') && topics.some((t) => t.startsWith('$SYS/')));

    // Anything recorded for the replay or $SYS would arrive before this marker.
    await watcher.publishAsync('marker', 'end', { qos: 1 });
    const got = asMqtt(await records.until(2));
    expect(got.map((r) => r.payload.topic)).toEqual(['status/door', 'marker']);
  });

  it("records a client's Will when it drops off", async () => {
    const { handle, records } = await start();
    const fragile = await client(handle.port, 'fragile', { will: { topic: 'status/fragile', payload: Buffer.from('offline'), qos: 1, retain: false } });
    fragile.stream.destroy();
    const [will] = asMqtt(await records.until(1));
    expect(will?.payload).toEqual({ topic: 'status/fragile', message: 'offline', qos: 1, retain: false });
    expect(will?.entity.entityName).toBe('fragile');
  });

  it('survives a connection that sends garbage, and keeps recording', async () => {
    const { handle, records } = await start();
    const garbage = tcpConnect(handle.port, '127.0.0.1');
    await once(garbage, 'connect');
    const dropped = once(garbage, 'close');
    garbage.end(Buffer.from([0xff, 0xff, 0xff, 0xff, 0x00, 0x01, 0x02]));
    await dropped; // the broker hangs up on it
    const sensor = await client(handle.port, 'after-garbage');
    await sensor.publishAsync('still/here', 'yes', { qos: 1 });
    expect(asMqtt(await records.until(1))[0]?.payload.topic).toBe('still/here');
  });

  it('closes cleanly with connected clients and half-open sockets, and frees its port', async () => {
    const { handle } = await start();
    const connected = await client(handle.port, 'stays');
    const silent = tcpConnect(handle.port, '127.0.0.1'); // never sends CONNECT
    await once(silent, 'connect');
    const silentClosed = once(silent, 'close');
    await handle.close();
    await handle.close();
    await silentClosed;
    expect(connected.connected).toBe(false);
    const refused = tcpConnect(handle.port, '127.0.0.1');
    await expect(once(refused, 'connect')).rejects.toThrow(/ECONNREFUSED/);
  });

  it('closes a connection that sends nothing for the idle time, and one whose packet is over the size limit before reading it', async () => {
    const { handle, records } = await start();
    const silent = tcpConnect(handle.port, '127.0.0.1');
    await once(silent, 'connect');
    await once(silent, 'close'); // after mqttIdleSeconds; aedes alone would wait 30 s for CONNECT

    const big = await client(handle.port, 'big-sender');
    const closed = new Promise<void>((resolve) => big.once('close', () => resolve()));
    big.publish('sensors/dump', Buffer.alloc(limits.mqttPacketBytes, 0x61), { qos: 0 }); // the topic makes it one packet too large
    await closed;
    const sensor = await client(handle.port, 'small-sender');
    await sensor.publishAsync('sensors/ok', Buffer.alloc(limits.mqttPacketBytes - 100, 0x62), { qos: 1 });
    expect(asMqtt(await records.until(1))[0]?.payload.topic).toBe('sensors/ok');
    expect(handle.stats()).toEqual({ delivered: 1, pending: 0, dropped: 1, droppedByReason: { 'too-large': 1 } });
  });
});
