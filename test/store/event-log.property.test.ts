import fc from 'fast-check';
import { Query } from 'mingo';
import { describe, expect, it } from 'vitest';
import type { EventLogRecord } from '../../src/spec/types.js';
import { EventLogStore } from '../../src/store/event-log.js';
import type { EventLogQuery } from '../../src/store/event-log.js';
import type { Filter } from '../../src/store/filter-check.js';

// Records with many ties (timestamps 0..15, few values per field), missing fields and mixed
// types, so order, tie-breaking and MongoDB's type order all get exercised.
const scalar = fc.oneof(
  fc.constant(null),
  fc.integer({ min: -3, max: 3 }),
  fc.constantFrom('a', 'B', 'b', 'é', '\u{1F600}', '\uFFFD', ''),
  fc.boolean(),
);
const mixed = fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }), fc.record({ x: fc.integer({ min: 0, max: 3 }) }));

const recordArb = fc
  .record(
    {
      n: fc.integer({ min: 0, max: 4095 }),
      type: fc.constantFrom('snmp-trap' as const, 'mqtt-message' as const),
      timestamp: fc.integer({ min: 0, max: 15 }),
      text: mixed,
      extra: mixed,
      level: fc.integer({ min: 1, max: 3 }),
      list: fc.array(fc.record({ x: scalar }, { requiredKeys: [] }), { maxLength: 3 }),
    },
    { requiredKeys: ['n', 'type', 'timestamp', 'level'] },
  )
  .map(({ n, type, timestamp, text, extra, level, list }) => {
    const r: Record<string, unknown> = { _id: n.toString(16).padStart(24, '0'), type, agentId: 'a', timestamp };
    r.payload = text === undefined ? {} : { text };
    r.entity = { entityId: 'e', entityType: level, entityName: `n${level}` };
    if (extra !== undefined) r.extra = extra;
    if (list !== undefined) r.list = list;
    // Plain JSON objects, as records are (fast-check makes some without a prototype).
    return JSON.parse(JSON.stringify(r)) as EventLogRecord;
  });
const recordsArb = fc.uniqueArray(recordArb, { selector: (r) => r._id, maxLength: 40 });

// Patterns whose answers depend on the engine's rules: case, line terminators, code points.
const regexArb = fc.record({
  $regex: fc.constantFrom('^a', 'b', '^$', '^.$', '[^a]', 'B$', '\\w', '^[a-z]+$', '\u00e9|\u{1F600}', '^\\S\\s?$', '(a+)+$', 'a|^B'),
  $options: fc.constantFrom('', 'i', 'm', 's', 'u', 'iu', 'ims'),
});

const filterArb: fc.Arbitrary<Filter> = fc.oneof(
  fc.record({ type: fc.constantFrom('snmp-trap', 'mqtt-message') }),
  fc.record({ extra: fc.record({ $gt: fc.integer({ min: -3, max: 3 }) }) }),
  fc.record({ extra: fc.record({ $exists: fc.boolean() }) }),
  fc.record({ 'payload.text': regexArb }),
  fc.record({ 'payload.text': fc.record({ $not: regexArb }) }),
  fc.record({ list: fc.record({ $elemMatch: fc.record({ x: regexArb }) }) }),
  fc.record({ 'list.x': fc.record({ $all: fc.tuple(fc.record({ $elemMatch: regexArb })) }) }),
  fc.record({ 'entity.entityType': fc.record({ $in: fc.array(fc.integer({ min: 1, max: 3 }), { maxLength: 2 }) }) }),
  fc.record({ $or: fc.tuple(fc.record({ 'entity.entityType': fc.constant(2) }), fc.record({ timestamp: fc.record({ $lte: fc.integer({ min: 0, max: 15 }) }) })) }),
  fc.record({ 'list.x': fc.record({ $ne: scalar }) }),
  fc.record({ extra: fc.record({ $in: fc.array(scalar, { maxLength: 4 }) }) }),
  fc.record({ 'list.x': fc.record({ $nin: fc.array(scalar, { maxLength: 3 }) }) }),
  fc.record({ 'payload.text': fc.record({ $in: fc.array(fc.oneof(scalar, fc.array(scalar, { maxLength: 2 })), { maxLength: 3 }) }) }),
  fc.record({ nothing: fc.record({ $in: fc.constantFrom([null], [1], [null, 'a']) }) }),
).map((f) => JSON.parse(JSON.stringify(f)) as Filter); // as parsed from the query string

const queryArb: fc.Arbitrary<EventLogQuery> = fc.record(
  {
    type: fc.constantFrom('snmp-trap' as const, 'mqtt-message' as const),
    from: fc.integer({ min: 0, max: 15 }),
    to: fc.integer({ min: 0, max: 15 }),
    filter: filterArb,
    sortField: fc.constantFrom('timestamp', 'extra', 'payload.text', 'entity.entityType', '_id', 'missing.field', 'list.x'),
    sortDirection: fc.constantFrom('asc' as const, 'desc' as const),
    inverse: fc.boolean(),
    skip: fc.integer({ min: 0, max: 20 }),
    limit: fc.integer({ min: 0, max: 20 }),
  },
  { requiredKeys: [] },
);

// ---- The reference: the obvious way, record by record. ----

function valueAt(value: unknown, path: string[]): unknown {
  if (path.length === 0) return value;
  if (Array.isArray(value)) return value.flatMap((item) => [valueAt(item, path)].flat()).filter((v) => v !== undefined);
  if (value === null || typeof value !== 'object' || !Object.hasOwn(value, path[0] as string)) return undefined;
  return valueAt((value as Record<string, unknown>)[path[0] as string], path.slice(1));
}

const EMPTY = Symbol('empty array');
const typeOrder = (v: unknown): number =>
  v === EMPTY ? 0 : v === null || v === undefined ? 1 : typeof v === 'number' ? 2 : typeof v === 'string' ? 3 : Array.isArray(v) ? 5 : typeof v === 'object' ? 4 : 6;

function refCompare(a: unknown, b: unknown): number {
  if (typeOrder(a) !== typeOrder(b)) return typeOrder(a) - typeOrder(b);
  if (typeof a === 'number' || typeof a === 'boolean') return Number(a) - Number(b);
  if (typeof a === 'string') {
    const [x, y] = [[...a].map((c) => c.codePointAt(0) as number), [...(b as string)].map((c) => c.codePointAt(0) as number)];
    for (let i = 0; i < Math.min(x.length, y.length); i++) if (x[i] !== y[i]) return (x[i] as number) - (y[i] as number);
    return x.length - y.length;
  }
  if (Array.isArray(a)) {
    const bb = b as unknown[];
    for (let i = 0; i < Math.min(a.length, bb.length); i++) if (refCompare(a[i], bb[i]) !== 0) return refCompare(a[i], bb[i]);
    return a.length - bb.length;
  }
  if (a !== null && typeof a === 'object') return (a as { x: number }).x - (b as { x: number }).x; // objects here are all {x}
  return 0;
}

function refKey(value: unknown, direction: 'asc' | 'desc'): unknown {
  if (!Array.isArray(value)) return value;
  if (value.length === 0) return EMPTY;
  const sorted = [...value].sort(refCompare);
  return direction === 'asc' ? sorted[0] : sorted[sorted.length - 1];
}

// RE2 always matches code points: the reference reads each `$regex` as JavaScript's with the u flag.
function withCodePoints(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withCodePoints);
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value).map(([k, v]) => [k, withCodePoints(v)]);
  const object = Object.fromEntries(entries) as Record<string, unknown>;
  if (typeof object.$regex === 'string') object.$options = `${String(object.$options ?? '').replace('u', '')}u`;
  return object;
}

function reference(records: readonly EventLogRecord[], q: EventLogQuery): EventLogRecord[] {
  const mingo = q.filter ? new Query(withCodePoints(q.filter) as Record<string, unknown>, {}) : undefined;
  const selected = records.filter(
    (r) =>
      (q.type === undefined || r.type === q.type) &&
      (q.from === undefined || r.timestamp >= q.from) &&
      (q.to === undefined || r.timestamp <= q.to) &&
      (mingo === undefined || mingo.test(r)),
  );
  const direction = q.sortDirection ?? 'asc';
  const path = (q.sortField ?? 'timestamp').split('.');
  const sorted = selected.sort((a, b) => {
    const c = refCompare(refKey(valueAt(a, path), direction), refKey(valueAt(b, path), direction)) || (a._id < b._id ? -1 : a._id > b._id ? 1 : 0);
    return direction === 'asc' ? c : -c;
  });
  if (q.inverse) sorted.reverse();
  const skip = q.skip ?? 0;
  return sorted.slice(skip, q.limit === undefined ? undefined : skip + q.limit);
}

const ids = (rs: readonly EventLogRecord[]) => rs.map((r) => r._id);

describe('EventLogStore.query against a plain reference', () => {
  it('selects, orders and pages like filter + sort + slice', () => {
    fc.assert(
      fc.property(recordsArb, queryArb, (records, q) => {
        const store = new EventLogStore(records);
        expect(ids(store.query(q))).toEqual(ids(reference(records, q)));
      }),
      { numRuns: 400 },
    );
  });

  it('picks small pages of many records sorted by other fields like a full sort', () => {
    const many = fc.uniqueArray(recordArb, { selector: (r) => r._id, minLength: 40, maxLength: 120 });
    const smallPage = fc.record({ skip: fc.integer({ min: 0, max: 4 }), limit: fc.integer({ min: 1, max: 5 }) });
    fc.assert(
      fc.property(many, queryArb, smallPage, (records, q, page) => {
        const query = { ...q, ...page, sortField: q.sortField === 'timestamp' || q.sortField === undefined ? 'extra' : q.sortField };
        expect(ids(new EventLogStore(records).query(query))).toEqual(ids(reference(records, query)));
      }),
      { numRuns: 150 },
    );
  });

  it('gives the same answers when records arrive later, one by one or in batches, in any order', () => {
    fc.assert(
      fc.property(recordsArb, fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 40 }), queryArb, (records, half, more, q) => {
        const store = new EventLogStore(records.slice(0, half));
        for (const r of records.slice(half, half + 3)) store.add(r);
        store.addAll(records.slice(half + 3, half + 3 + more));
        store.addAll(records.slice(half + 3 + more));
        expect(ids(store.query(q))).toEqual(ids(reference(records, q)));
      }),
      { numRuns: 200 },
    );
  });

  it('merges a large batch into the order', () => {
    const many = fc.uniqueArray(recordArb, { selector: (r) => r._id, minLength: 30, maxLength: 80 });
    fc.assert(
      fc.property(many, fc.integer({ min: 0, max: 10 }), queryArb, (records, head, q) => {
        const store = new EventLogStore(records.slice(0, head));
        store.addAll(records.slice(head));
        expect(ids(store.query(q))).toEqual(ids(reference(records, q)));
      }),
      { numRuns: 100 },
    );
  });

  it('pages that concatenate to the unpaged list, every record exactly once', () => {
    fc.assert(
      fc.property(recordsArb, queryArb, fc.integer({ min: 1, max: 7 }), (records, q, pageSize) => {
        const store = new EventLogStore(records);
        const whole = { ...q, skip: undefined, limit: undefined };
        const all = ids(store.query(whole));
        const pages: string[] = [];
        for (let skip = 0; skip <= all.length; skip += pageSize) pages.push(...ids(store.query({ ...whole, skip, limit: pageSize })));
        expect(pages).toEqual(all);
        expect(new Set(pages).size).toBe(pages.length);
      }),
      { numRuns: 200 },
    );
  });
});
