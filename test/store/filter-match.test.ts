import fc from 'fast-check';
import { Query } from 'mingo';
import { describe, expect, it } from 'vitest';
import { generateEvents } from '../../src/seed/generate-events.js';
import { compileFilter } from '../../src/store/filter-match.js';
import { valueAtPath } from '../../src/shared/field-path.js';

// Records as generated, plus shapes the generator does not make: arrays on the way and at
// the end, nulls, objects where a scalar is asked for, numbers that look like strings.
const records: object[] = [
  ...generateEvents({ count: 300, seed: 5 }),
  { _id: 'a', type: 'snmp-trap', payload: { text: ['x', 'y'], trapOid: null }, entity: { entityType: 1 } },
  { _id: 'b', type: 'snmp-trap', payload: [{ text: 'x' }, { text: 'z' }], entity: null },
  { _id: 'c', type: 'mqtt-message', payload: { text: { nested: 'x' }, qos: '1' }, entity: { entityType: '1' } },
  { _id: 'd', type: 'mqtt-message', payload: 'flat', entity: [] },
  { _id: 'e', type: 'snmp-trap', payload: { text: 'x', qos: 1, retain: false }, entity: { entityName: true } },
];

const PATHS = [
  'type', 'payload.text', 'payload.trapOid', 'payload.senderAddress', 'payload.bindings.oid', 'payload.bindings.0.oid', 'payload.qos',
  'payload.retain', 'payload.topic', 'entity.entityName', 'entity.entityType', 'entity', 'payload', 'missing.field', 'payload.text.length',
];

/** A value the path has in some record (so that filters also match), or another scalar. */
const valueFor = (path: string) => {
  const seen = records.map((r) => valueAtPath(r, path.split('.'))).filter((v) => ['string', 'number', 'boolean'].includes(typeof v));
  const scalar = fc.oneof(fc.string({ maxLength: 5 }), fc.integer({ min: -2, max: 3 }), fc.boolean(), fc.constantFrom('x', 'y', '1', 1, 'snmp-trap'));
  return seen.length > 0 ? fc.oneof(fc.constantFrom(...seen), scalar) : scalar;
};

// Patterns that RE2 and JavaScript (mingo's engine) read the same way.
const regex = fc.record(
  { $regex: fc.constantFrom('x', '^s', 'down$', 'link(Up|Down)', '[0-9]+', 'A.c', '^$'), $options: fc.constantFrom('', 'i', 'm', 's', 'is', 'u') },
  { requiredKeys: ['$regex'] },
);

const plainFilter = fc
  .uniqueArray(fc.constantFrom(...PATHS), { minLength: 1, maxLength: 3 })
  .chain((paths) => fc.tuple(...paths.map((p) => fc.oneof(valueFor(p), regex).map((v) => [p, v] as const))))
  .map((entries) => Object.fromEntries(entries));

describe('compileFilter', () => {
  it('answers filters of fields equal to scalars or matching regexes exactly as mingo does, for every record', () => {
    fc.assert(
      fc.property(plainFilter, (filter) => {
        const mine = compileFilter(filter);
        const mingo = new Query(filter);
        for (const record of records) expect(mine(record), JSON.stringify({ filter, record })).toBe(mingo.test(record as Record<string, unknown>));
      }),
      { numRuns: 100, seed: 42 },
    );
  });

  it('finds what the filter names', () => {
    const linkDown = compileFilter({ 'payload.trapOid': '1.3.6.1.6.3.1.1.5.3', type: 'snmp-trap' });
    const found = records.filter(linkDown);
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((r) => (r as { payload: { trapOid: string } }).payload.trapOid === '1.3.6.1.6.3.1.1.5.3')).toBe(true);
    expect(records.filter(compileFilter({ 'payload.text': 'x' })).map((r) => (r as { _id: string })._id)).toEqual(['a', 'b', 'e']);
    const nested = compileFilter({ payload: { $elemMatch: { text: { $not: { $regex: '^X$', $options: 'i' } } } } });
    expect(records.filter(nested).map((r) => (r as { _id: string })._id)).toEqual(['b']);
  });
});
