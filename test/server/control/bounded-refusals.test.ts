import { afterAll, describe, expect, it } from 'vitest';
import { buildFake } from '../../../src/server/build.js';
import { spec } from '../helpers.js';
import { control } from './helpers.js';

// A refused body gets an answer of a few problems and their count, however many problems it
// holds: each problem names its field, what was sent and what is allowed, from the document.
const app = await buildFake({ spec, docs: false, records: 20 });
afterAll(() => app.close());

type ErrorBody = { code: string; message: string; details: { name: string; problem: string }[] };
const bad = (n: number) => `[${Array(n).fill('{"bad":1}').join(',')}]`;
const json = { 'content-type': 'application/json' };

describe('a body of many bad items', () => {
  const cases = [
    ['replaceEventLog', 'PUT', '/__control/event-log', bad(100_000)],
    ['addEventLogRecords', 'POST', '/__control/event-log', bad(100_000)],
    ['importSnapshot', 'PUT', '/__control/snapshot', `{"format":"monitoring-api-kit/snapshot","eventLog":${bad(100_000)}}`],
  ] as const;
  for (const [operationId, method, url, payload] of cases) {
    it(`${operationId}: a short 400 with the first problem, and the fake answers the next request`, async () => {
      const { status, response, body } = await control<ErrorBody>(app, operationId, { method, url, payload, headers: json });
      expect(status).toBe(400);
      expect(response.body.length).toBeLessThan(2000);
      expect(body.details.length).toBe(1);
      expect(body.message).toMatch(/checked up to its first problem only\.$/);
      expect((await control(app, 'getConfig')).status).toBe(200);
    });
  }

  it('a body small enough to check whole: its first problems and their count', async () => {
    const { status, body } = await control<ErrorBody>(app, 'replaceEventLog', { method: 'PUT', payload: bad(50), headers: json });
    expect(status).toBe(400);
    expect(body.details).toHaveLength(20);
    expect(body.details[0]).toEqual({ location: 'body', name: '/0/type', problem: 'must be one of "snmp-trap", "mqtt-message"' });
    expect(body.message).toMatch(/^body field "\/0\/type" must be one of "snmp-trap", "mqtt-message"; .+; 50 problems in all, the first 20 in details\.$/);
  });
});

describe('a fault that names what cannot be combined or what exists', () => {
  it('count and probability together', async () => {
    const { status, body } = await control<ErrorBody>(app, 'injectFault', { payload: { operationId: 'getEventLog', count: 1, probability: 0.5 } });
    expect(status).toBe(400);
    expect(body.message).toBe('body has "count" and "probability", which cannot be combined; give only one');
  });

  it('neither count nor probability', async () => {
    const { body } = await control<ErrorBody>(app, 'injectFault', { payload: { operationId: 'getEventLog' } });
    expect(body.message).toBe('body needs exactly one of "count", "probability"');
  });

  it('a misspelt operationId, in the body and in a query', async () => {
    const { body } = await control<ErrorBody>(app, 'injectFault', { payload: { operationId: 'getEventLg', count: 1 } });
    expect(body.details).toEqual([
      { location: 'body', name: '/operationId', problem: expect.stringMatching(/^must be one of "createAuthToken", .*"getEventLog", .*not "getEventLg"$/) },
    ]);
    const query = await control<ErrorBody>(app, 'clearFaults', { url: '/__control/faults?operationId=getEventLg' });
    expect(query.body.message).toMatch(/^query parameter "operationId" must be one of .*"getEventLog".*, not "getEventLg"$/);
  });

  it('a delay of the wrong form says which forms are allowed', async () => {
    const { body } = await control<ErrorBody>(app, 'injectFault', { payload: { operationId: 'getEventLog', count: 1, delayMs: 'slow' } });
    expect(body.details).toEqual([{ location: 'body', name: '/delayMs', problem: 'must be integer or array, not "slow"' }]);
  });

  it('a record of an unknown type names the types; of a known one, only its own problems', async () => {
    const unknown = await control<ErrorBody>(app, 'addEventLogRecords', { payload: [{ type: 'snmp' }] });
    expect(unknown.body.details).toEqual([{ location: 'body', name: '/0/type', problem: 'must be one of "snmp-trap", "mqtt-message", not "snmp"' }]);
    const mqtt = await control<ErrorBody>(app, 'addEventLogRecords', { payload: [{ type: 'mqtt-message', agentId: 'a', payload: {}, entity: {} }] });
    expect(mqtt.body.details.map((d) => d.name)).toEqual(['/0/payload/topic', '/0/payload/message', '/0/payload/qos', '/0/entity/entityId', '/0/entity/entityType', '/0/entity/entityName']);
  });
});
