// GET /__control/ingest over HTTP: what the SNMP listener and the MQTT broker of a running fake
// received and what became of it, so a trap that does not show up can be told apart.
import { connectAsync } from 'mqtt';
import snmp from 'net-snmp';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createFake, type Fake } from '../../src/fake/create-fake.js';
import type { IngestCounts } from '../../src/spec/control-types.js';
import { spec } from '../server/helpers.js';
import { controlValidator } from '../server/control/helpers.js';

/** GET /__control/ingest over HTTP, checked against the control API document. */
async function ingestCounts(controlUrl: string): Promise<IngestCounts> {
  const response = await fetch(`${controlUrl}/ingest`);
  const body = await response.text();
  expect(controlValidator.checkResponse('getIngestCounts', { status: response.status, headers: Object.fromEntries(response.headers), body })).toEqual([]);
  expect(response.status).toBe(200);
  return JSON.parse(body) as IngestCounts;
}

/** Sends one SNMPv2c linkDown trap with this community. */
async function sendTrap(port: number, community: string): Promise<void> {
  const session = snmp.createSession('127.0.0.1', community, { version: snmp.Version2c, trapPort: port });
  try {
    await new Promise<void>((resolve, reject) =>
      session.trap('1.3.6.1.6.3.1.1.5.3', [{ oid: '1.3.6.1.2.1.2.2.1.1', type: snmp.ObjectType.Integer, value: 7 }], {}, (error) => (error ? reject(error) : resolve())),
    );
  } finally {
    session.close();
  }
}

describe('GET /__control/ingest with both sources running', () => {
  let fake: Fake;
  let controlUrl = '';
  beforeAll(async () => {
    fake = await createFake({ spec, records: 10, docs: false, snmpPort: 0, mqttPort: 0 });
    controlUrl = (await fake.listen()).controlUrl;
  });
  afterAll(() => fake.close());

  it('counts a good trap as delivered, a trap of a wrong community as dropped by its reason, and an MQTT publish as delivered', async () => {
    const before = await ingestCounts(controlUrl);
    expect(before).toEqual({
      snmp: { running: true, port: fake.snmpPort, delivered: 0, pending: 0, dropped: 0, droppedByReason: {} },
      mqtt: { running: true, port: fake.mqttPort, delivered: 0, pending: 0, dropped: 0, droppedByReason: {} },
    });

    await sendTrap(fake.snmpPort!, 'public');
    await sendTrap(fake.snmpPort!, 'not-the-community');
    const client = await connectAsync(`mqtt://127.0.0.1:${fake.mqttPort}`, { clientId: 'rack-4-sensor', reconnectPeriod: 0 });
    try {
      await client.publishAsync('sensors/rack-4/temperature', '{"celsius":41.5}', { qos: 1 });
    } finally {
      await client.endAsync();
    }

    // UDP and the broker hand over asynchronously: ask until all three are counted.
    const counted = (c: IngestCounts) => c.snmp.running && c.mqtt.running && c.snmp.delivered + c.snmp.dropped === 2 && c.mqtt.delivered + c.mqtt.dropped === 1;
    const after = await vi.waitFor(async () => {
      const counts = await ingestCounts(controlUrl);
      if (!counted(counts)) throw new Error(`not counted yet: ${JSON.stringify(counts)}`);
      return counts;
    }, { timeout: 5000, interval: 50 });
    expect(after).toEqual({
      snmp: { running: true, port: fake.snmpPort, delivered: 1, pending: 0, dropped: 1, droppedByReason: { 'unknown-community': 1 } },
      mqtt: { running: true, port: fake.mqttPort, delivered: 1, pending: 0, dropped: 0, droppedByReason: {} },
    });
    // The in-process method makes the same call.
    expect(await fake.ingestCounts()).toEqual(after);
  });
});

describe('GET /__control/ingest without ingesters', () => {
  let fake: Fake;
  let controlUrl = '';
  beforeAll(async () => {
    fake = await createFake({ spec, records: 10, docs: false });
    controlUrl = (await fake.listen()).controlUrl;
  });
  afterAll(() => fake.close());

  it('answers both sources as not running', async () => {
    expect(await ingestCounts(controlUrl)).toEqual({ snmp: { running: false }, mqtt: { running: false } });
  });
});
