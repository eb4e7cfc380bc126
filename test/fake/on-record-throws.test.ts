// An `onRecord` callback that throws is the caller's bug, not a refusal of the record: the record
// a real MQTT publish made stays in the event log, no "dropped" warning is logged for it, and
// the throw is logged as an error naming the record.
import { connectAsync } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFake, type Fake } from '../../src/fake/create-fake.js';
import type { EventLogRecord, MqttMessageRecord } from '../../src/spec/types.js';
import { createCollector } from '../helpers/collector.js';
import { basicOf, spec, validator } from '../server/helpers.js';

const told = createCollector<EventLogRecord>();
const lines = createCollector<Record<string, unknown>>();
let fake: Fake;
let baseUrl = '';
beforeAll(async () => {
  fake = await createFake({
    spec,
    records: 10,
    docs: false,
    mqttPort: 0,
    logger: { level: 'warn', stream: { write: (line) => lines.push(JSON.parse(line) as Record<string, unknown>) } },
    onRecord: (record) => {
      told.push(record);
      throw new Error('a listener of the test failed');
    },
  });
  baseUrl = (await fake.listen()).baseUrl;
});
afterAll(() => fake.close());

describe('an onRecord callback that throws', () => {
  it('leaves the received record stored, logs the throw as an error and no drop', async () => {
    const client = await connectAsync(`mqtt://127.0.0.1:${fake.mqttPort}`, { clientId: 'rack-9-sensor', reconnectPeriod: 0 });
    try {
      await client.publishAsync('sensors/rack-9/door', 'open', { qos: 1 });
    } finally {
      await client.endAsync();
    }
    const [record] = await told.until(1);
    const [line] = await lines.waitFor((all) => all.some((l) => l.msg !== undefined && String(l.msg).startsWith('onRecord threw')));

    const response = await fetch(`${baseUrl}/event-log?${new URLSearchParams({ type: '2', filter: JSON.stringify({ _id: record!._id }) })}`, { headers: basicOf('viewer') });
    const body = await response.text();
    expect(validator.checkResponse('getEventLog', { status: response.status, headers: Object.fromEntries(response.headers), body })).toEqual([]);
    const stored = JSON.parse(body) as MqttMessageRecord[];
    expect(stored.map((r) => [r._id, r.payload.topic])).toEqual([[record!._id, 'sensors/rack-9/door']]);

    const thrown = lines.items.filter((l) => String(l.msg).startsWith('onRecord threw'));
    expect(thrown).toHaveLength(1);
    expect(line).toMatchObject({ level: 50, source: 'mqtt', recordId: record!._id, err: { message: 'a listener of the test failed' } });
    expect(lines.items.filter((l) => l.msg === 'an incoming event was dropped')).toEqual([]);
  });
});
