import { connectAsync } from 'mqtt';
import snmp from 'net-snmp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFake, type Fake } from '../../src/fake/create-fake.js';
import type { RecordSource } from '../../src/fake/record-sources.js';
import type { EventLogRecord, MqttMessageRecord, SnmpTrapRecord } from '../../src/spec/types.js';
import { createCollector } from '../helpers/collector.js';
import { basicOf, spec, validator } from '../server/helpers.js';

const received = createCollector<{ record: EventLogRecord; source: RecordSource }>();
let fake: Fake;
let baseUrl = '';
beforeAll(async () => {
  fake = await createFake({ spec, records: 10, docs: false, snmpPort: 0, mqttPort: 0, onRecord: (record, source) => received.push({ record, source }) });
  baseUrl = (await fake.listen()).baseUrl;
});
afterAll(() => fake.close());

/** The first record received from this source, once it has come. */
async function firstFrom(source: RecordSource): Promise<EventLogRecord> {
  const items = await received.waitFor((all) => all.some((i) => i.source === source));
  return items.find((i) => i.source === source)!.record;
}

/** GET /node/api/event-log over HTTP, checked against the document. */
async function eventLog(query: Record<string, string>) {
  const response = await fetch(`${baseUrl}/event-log?${new URLSearchParams(query)}`, { headers: basicOf('viewer') });
  const body = await response.text();
  expect(validator.checkResponse('getEventLog', { status: response.status, headers: Object.fromEntries(response.headers), body })).toEqual([]);
  return JSON.parse(body) as EventLogRecord[];
}

describe('events received by a running fake', () => {
  it('a real SNMPv2c trap sent with net-snmp appears in GET /node/api/event-log', async () => {
    expect(fake.snmpPort).toBeGreaterThan(0);
    const session = snmp.createSession('127.0.0.1', 'public', { version: snmp.Version2c, trapPort: fake.snmpPort });
    try {
      await new Promise<void>((resolve, reject) =>
        session.trap('1.3.6.1.6.3.1.1.5.3', [{ oid: '1.3.6.1.2.1.2.2.1.1', type: snmp.ObjectType.Integer, value: 7 }], {}, (error) => (error ? reject(error) : resolve())),
      );
    } finally {
      session.close();
    }
    const record = await firstFrom('snmp');
    const traps = await eventLog({ type: '1', filter: JSON.stringify({ _id: record._id }) });
    expect(traps).toHaveLength(1);
    const trap = traps[0] as SnmpTrapRecord;
    expect(trap).toMatchObject({ type: 'snmp-trap', payload: { senderAddress: '127.0.0.1', trapOid: '1.3.6.1.6.3.1.1.5.3' } });
    expect(trap.payload.bindings).toContainEqual({ oid: '1.3.6.1.2.1.2.2.1.1', type: 'Integer', value: 7 });
    // The newest record of the log.
    expect((await eventLog({ sortDirection: 'desc', limit: '1', type: '1' }))[0]?._id).toBe(trap._id);
  });

  it('a real MQTT publish appears in GET /node/api/event-log', async () => {
    const client = await connectAsync(`mqtt://127.0.0.1:${fake.mqttPort}`, { clientId: 'rack-4-sensor', reconnectPeriod: 0 });
    try {
      await client.publishAsync('sensors/rack-4/temperature', '{"celsius":41.5}', { qos: 1 });
    } finally {
      await client.endAsync();
    }
    const record = await firstFrom('mqtt');
    const messages = await eventLog({ type: '2', filter: JSON.stringify({ 'payload.topic': 'sensors/rack-4/temperature', _id: record._id }) });
    expect(messages).toHaveLength(1);
    expect((messages[0] as MqttMessageRecord).payload).toMatchObject({ topic: 'sensors/rack-4/temperature', message: '{"celsius":41.5}', qos: 1 });
  });
});
