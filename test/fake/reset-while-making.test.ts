import { connectAsync } from 'mqtt';
import { afterEach, describe, expect, it } from 'vitest';
import { createFake, type Fake } from '../../src/fake/create-fake.js';
import type { EventLogRecord, MqttMessageRecord } from '../../src/spec/types.js';
import { API, basicOf, expectConforms, spec } from '../server/helpers.js';

// Made in many turns (2,000 records a turn): the making lasts long enough for a few messages.
const RECORDS = 200_000;
const FIXTURES = 7;

let fake: Fake | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const turn = () => new Promise((resolve) => setImmediate(resolve));

/** Publishes with QoS 2: the broker has handed the message to the event log when the publish is complete. */
async function publish(port: number, topic: string): Promise<void> {
  const client = await connectAsync(`mqtt://127.0.0.1:${port}`, { clientId: 'rack-9-sensor', reconnectPeriod: 0 });
  try {
    await client.publishAsync(topic, '{"celsius":40}', { qos: 2 });
  } finally {
    await client.endAsync();
  }
}

/** The MQTT records of the log, newest last, through the API (checked against the document). */
async function mqttTopics(app: Fake): Promise<string[]> {
  const answer = await app.inject({ url: `${API}/event-log?type=2&filter=${encodeURIComponent('{"payload.topic":{"$regex":"^reset-test/"}}')}&limit=10`, headers: basicOf('viewer') });
  expectConforms('getEventLog', answer);
  expect(answer.statusCode).toBe(200);
  return (JSON.parse(answer.body) as EventLogRecord[]).map((r) => (r as MqttMessageRecord).payload.topic);
}

describe('a reset while the event log records are made', () => {
  // The store's own reset and the control API's keep the same rule: what came before the reset
  // is gone, what came after it stays.
  it.each(['the store', 'the control API'] as const)('by %s undoes the MQTT records that were waiting for the making, and keeps those that come after it', async (by) => {
    const stored: string[] = [];
    fake = await createFake({ spec, records: RECORDS, docs: false, mqttPort: 0, onRecord: (record) => stored.push((record as MqttMessageRecord).payload.topic) });
    const port = fake.mqttPort!;
    const { events } = fake.app.fake.state.data;
    const first = fake.inject({ url: `${API}/event-log?limit=1`, headers: basicOf('viewer') });
    while (events.status === 'pending') await turn();

    await publish(port, 'reset-test/before');
    expect(events.status).toBe('making');
    const reset = by === 'the store' ? fake.app.fake.state.reset() : fake.reset();
    await publish(port, 'reset-test/after');
    expect(events.status).toBe('making');

    const answer = await first;
    expectConforms('getEventLog', answer);
    expect(answer.statusCode).toBe(200);
    if (reset instanceof Promise) expect(await reset).toMatchObject({ eventLogRecords: RECORDS + FIXTURES });
    expect(await mqttTopics(fake)).toEqual(['reset-test/after']);
    // Each was stored in its turn, the first before the reset took it away.
    expect(stored).toEqual(['reset-test/before', 'reset-test/after']);
    expect(events.size).toBe(RECORDS + FIXTURES + 1);
  });

  it('by the store, then a record added at once: the reset comes first', async () => {
    fake = await createFake({ spec, records: RECORDS, docs: false, mqttPort: 0 });
    const { events } = fake.app.fake.state.data;
    void fake.inject({ url: `${API}/event-log?limit=1`, headers: basicOf('viewer') });
    while (events.status === 'pending') await turn();
    await publish(fake.mqttPort!, 'reset-test/before');
    expect(events.status).toBe('making');
    fake.app.fake.state.reset();
    // A caller that cannot wait makes the records at once: the calls that waited come first.
    const added = events.add({ _id: '0000000000000000000000b1', timestamp: Date.UTC(2025, 7, 1), type: 'mqtt-message', agentId: 'a1', payload: { topic: 'reset-test/added', message: '1', qos: 0 }, entity: { entityId: 'e1', entityType: 2, entityName: 'rack-9' } });
    expect(events.status).toBe('ready');
    expect(events.get(added._id)).toEqual(added);
    expect(await mqttTopics(fake)).toEqual(['reset-test/added']);
  });
});
