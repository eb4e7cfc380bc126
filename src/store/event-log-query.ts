import type { EventLogRecord } from '../spec/types.js';
import { valueAtPath } from '../shared/field-path.js';
import { compareStrings, compareValues, sortKey } from '../shared/mongo-order.js';
import type { Filter } from './filter-check.js';
import { compileFilter } from './filter-match.js';
import { lowerBound } from './record-order.js';
import { FirstK } from './top-k.js';

/** An event log query in the store's terms: valid values (the server makes them of getEventLog's parameters). */
export interface EventLogQuery {
  /** Only records of this `type` (`type=1` is snmp-trap, `type=2` mqtt-message). */
  readonly type?: EventLogRecord['type'];
  /** Inclusive bounds on `timestamp`, in ms. */
  readonly from?: number;
  readonly to?: number;
  /** A MongoDB-style query that passed `filterValueProblem`; only such filters may be given. */
  readonly filter?: Filter;
  /** Dotted field path (see fieldPathProblem); default `timestamp`. */
  readonly sortField?: string;
  /** Default `asc`. */
  readonly sortDirection?: 'asc' | 'desc';
  /** Reverses the order that sortField and sortDirection give. */
  readonly inverse?: boolean;
  readonly skip?: number;
  /** Absent: every matching record. */
  readonly limit?: number;
}

/** The test of a record's type and filter, or undefined when every record passes. */
function matcher(q: EventLogQuery): ((r: EventLogRecord) => boolean) | undefined {
  const test = q.filter && compileFilter(q.filter);
  const { type } = q;
  if (type === undefined) return test;
  return test ? (r) => r.type === type && test(r) : (r) => r.type === type;
}

/**
 * The records a checked query selects, from records in store order (timestamp, then _id). The
 * time range is found by binary search; with the default sort field the range is walked from
 * the wanted end until the page is full, so a page costs the records it returns plus those the
 * type and filter reject on the way. Other sort fields sort the matching records.
 */
export function selectRecords(records: readonly EventLogRecord[], q: EventLogQuery): EventLogRecord[] {
  const lo = q.from === undefined ? 0 : lowerBound(records, q.from);
  const hi = q.to === undefined ? records.length : lowerBound(records, Math.floor(q.to) + 1);
  const skip = q.skip ?? 0;
  const limit = q.limit ?? Infinity;
  if (lo >= hi || limit <= 0) return [];
  const direction = q.sortDirection ?? 'asc';
  const match = matcher(q);
  if ((q.sortField ?? 'timestamp') === 'timestamp') {
    const ascending = (direction === 'asc') !== (q.inverse === true);
    const step = ascending ? 1 : -1;
    if (!match) {
      const count = Math.max(0, Math.min(limit, hi - lo - skip));
      return Array.from({ length: count }, (_, k) => records[ascending ? lo + skip + k : hi - 1 - skip - k] as EventLogRecord);
    }
    const page: EventLogRecord[] = [];
    let toSkip = skip;
    for (let i = ascending ? lo : hi - 1; i >= lo && i < hi && page.length < limit; i += step) {
      const r = records[i] as EventLogRecord;
      if (!match(r)) continue;
      if (toSkip > 0) toSkip--;
      else page.push(r);
    }
    return page;
  }
  const segments = (q.sortField as string).split('.');
  const keyed: Keyed[] = [];
  for (let i = lo; i < hi; i++) {
    const record = records[i] as EventLogRecord;
    if (!match || match(record)) keyed.push({ record, key: sortKey(valueAtPath(record, segments), direction) });
  }
  return sortByKey(keyed, direction, q.inverse === true, skip, limit);
}

interface Keyed {
  readonly record: EventLogRecord;
  readonly key: unknown;
}

/**
 * Sorts by the keys (a dotted field in MongoDB order), ties by _id in the same direction,
 * reversed when `inverse`; then the page. A small page of many records is picked without a
 * full sort.
 */
function sortByKey(keyed: Keyed[], direction: 'asc' | 'desc', inverse: boolean, skip: number, limit: number): EventLogRecord[] {
  const sign = (direction === 'asc' ? 1 : -1) * (inverse ? -1 : 1);
  const compare = (a: Keyed, b: Keyed) => sign * (compareValues(a.key, b.key) || compareStrings(a.record._id, b.record._id));
  const end = skip + limit;
  let ordered: Keyed[];
  if (end * 4 < keyed.length) {
    const top = new FirstK(end, compare);
    for (const k of keyed) top.offer(k);
    ordered = top.sorted();
  } else {
    ordered = keyed.sort(compare);
  }
  return ordered.slice(skip, end === Infinity ? undefined : end).map((k) => k.record);
}
