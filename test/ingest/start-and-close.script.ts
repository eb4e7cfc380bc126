// Run as a child process by ingest-exit.test.ts: starts both ingesters, sends one message to
// each, closes them, and must then exit on its own (no handle left open).
import { connectAsync } from 'mqtt';
import snmp from 'net-snmp';
import { systemClock } from '../../src/shared/clock.js';
import { startMqttBroker } from '../../src/ingest/mqtt-broker.js';
import { startSnmpTrapListener } from '../../src/ingest/snmp-trap-listener.js';
import type { EventLogRecord } from '../../src/spec/index.js';

const received: EventLogRecord[] = [];
let arrived: () => void = () => {};
const bothArrived = new Promise<void>((resolve) => (arrived = resolve));
const sink = (record: EventLogRecord) => {
  received.push(record);
  if (received.length === 2) arrived();
};

const limits = { mqttConnections: 10, mqttIdleSeconds: 60, mqttPacketBytes: 4096, snmpPacketBytes: 4096 };
const broker = await startMqttBroker({ port: 0, sink, clock: systemClock, limits });
const traps = await startSnmpTrapListener({ port: 0, sink, clock: systemClock, limits });

const client = await connectAsync(`mqtt://127.0.0.1:${broker.port}`, { clientId: 'exit-check', reconnectPeriod: 0 });
await client.publishAsync('exit/check', 'bye', { qos: 1 });
const session = snmp.createSession('127.0.0.1', 'public', { version: snmp.Version2c, trapPort: traps.port });
await new Promise<void>((resolve, reject) => session.trap(snmp.TrapType.ColdStart, [], {}, (e) => (e ? reject(e) : resolve())));
session.close();
await bothArrived;

// The client is left connected on purpose: the broker must end it.
await Promise.all([broker.close(), traps.close()]);
process.stdout.write(JSON.stringify(received.map((r) => r.type).sort()));
