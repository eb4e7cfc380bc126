import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mqttMessageToRecord, renderMessage } from '../../src/ingest/mqtt-broker.js';
import { createSpecValidator, loadSpec } from '../../src/spec/index.js';

const validator = createSpecValidator(await loadSpec());
const stamp = { id: '5867948233835d9661c56dc9', timestamp: 1_756_497_680_000 };

describe('renderMessage', () => {
  it('keeps valid UTF-8 as text and encodes anything else as base64', () => {
    expect(renderMessage(Buffer.from('{"celsius":41.5}'))).toBe('{"celsius":41.5}');
    expect(renderMessage(Buffer.from('Größe 温度'))).toBe('Größe 温度');
    expect(renderMessage(Buffer.from([]))).toBe('');
    expect(renderMessage(Buffer.from([0xef, 0xbb, 0xbf, 0x41]))).toBe('\ufeffA'); // the BOM is kept
    expect(renderMessage(Buffer.from([0xc3, 0x28]))).toBe('wyg=');
    expect(renderMessage(Buffer.from([0xff, 0x00, 0xfe]))).toBe('/wD+');
  });
});

describe('mqttMessageToRecord', () => {
  it('builds a valid mqtt-message record of a sensor named by the client id', () => {
    const record = mqttMessageToRecord({ clientId: 'rack-4-sensor', topic: 'sensors/rack-4/temperature', payload: Buffer.from('{"celsius":41.5}'), qos: 1, retain: false }, stamp);
    expect(record).toMatchObject({
      _id: '5867948233835d9661c56dc9',
      type: 'mqtt-message',
      timestamp: 1_756_497_680_000,
      payload: { topic: 'sensors/rack-4/temperature', message: '{"celsius":41.5}', qos: 1, retain: false },
      entity: { entityType: 2, entityName: 'rack-4-sensor' },
    });
    expect(validator.validateNamed('EventLogRecord', record)).toEqual([]);
  });

  it('refuses an empty topic or a QoS outside 0..2', () => {
    const base = { clientId: 'c', topic: 't', payload: '', qos: 0, retain: false };
    expect(() => mqttMessageToRecord({ ...base, topic: '' }, stamp)).toThrow(/empty topic/);
    expect(() => mqttMessageToRecord({ ...base, qos: 3 }, stamp)).toThrow(/QoS 3/);
  });

  it('always gives a valid record for any client id, topic and payload bytes', () => {
    fc.assert(
      fc.property(fc.string(), fc.string({ minLength: 1 }), fc.uint8Array({ maxLength: 64 }), fc.constantFrom(0, 1, 2), fc.boolean(), (clientId, topic, bytes, qos, retain) => {
        const record = mqttMessageToRecord({ clientId, topic, payload: bytes, qos, retain }, stamp);
        expect(validator.validateNamed('EventLogRecord', record)).toEqual([]);
        // Nothing is lost: text round-trips to the same bytes, or base64 does.
        const back = Buffer.from(record.payload.message, 'utf8');
        expect(back.equals(Buffer.from(bytes)) || Buffer.from(record.payload.message, 'base64').equals(Buffer.from(bytes))).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
