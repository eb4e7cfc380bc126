import type { EventLogRecord } from '../spec/types.js';
import type { EventLogQuery } from './event-log-query.js';
import { valueAtPath } from '../shared/field-path.js';
import { FILTER_LIMITS, filterCost } from './filter-check.js';
import { compileFilter } from './filter-match.js';
import { compareStrings, compareValues, sortKey } from '../shared/mongo-order.js';
import { lowerBound } from './record-order.js';
import { firstK } from './top-k.js';

/**
 * Runs a query over records that are already in store order (timestamp, then _id) and of the
 * wanted type. With the default sort field it walks the time range from the wanted end and
 * stops when the page is full, so the common query touches only the records it returns
 * (plus those the filter rejects on the way). Other sort fields sort the matching records.
 */
/** A filter that would test too many records for its cost (FILTER_LIMITS.maxWork); nothing was returned. */
export class FilterTooCostlyError extends Error {
  override readonly name = 'FilterTooCostlyError';
  /** For an error detail of the `filter` parameter. */
  readonly problem: string;
  constructor(maxTested: number, cost: number) {
    const problem = `is too costly: it would test more than ${maxTested} records with ${cost} conditions; narrow the time range or the type, or simplify it`;
    super(`filter ${problem}`);
    this.problem = problem;
  }
}

/** Throws FilterTooCostlyError when the filter would test more records than its cost allows. */
export function selectRecords(source: readonly EventLogRecord[], q: EventLogQuery, maxWork: number = FILTER_LIMITS.maxWork): EventLogRecord[] {
  const lo = q.from === undefined ? 0 : lowerBound(source, q.from);
  const hi = q.to === undefined ? source.length : lowerBound(source, Math.floor(q.to) + 1);
  const skip = q.skip ?? 0;
  const limit = q.limit ?? Infinity;
  if (lo >= hi || limit <= 0) return [];
  const match = q.filter ? budgeted(compileFilter(q.filter), filterCost(q.filter), maxWork) : undefined;
  const direction = q.sortDirection ?? 'asc';
  const sortField = q.sortField ?? 'timestamp';
  if (sortField === 'timestamp') {
    const ascending = (direction === 'asc') !== (q.inverse === true);
    return match ? walkFiltered(source, lo, hi, ascending, skip, limit, match) : slicePage(source, lo, hi, ascending, skip, limit);
  }
  const candidates: EventLogRecord[] = [];
  for (let i = lo; i < hi; i++) {
    const r = source[i] as EventLogRecord;
    if (!match || match(r)) candidates.push(r);
  }
  return sortByField(candidates, sortField, direction, q.inverse === true, skip, limit);
}

/** Counts the records a filter tests and stops the query when they exceed its budget. */
function budgeted(match: (r: EventLogRecord) => boolean, cost: number, maxWork: number): (r: EventLogRecord) => boolean {
  const maxTested = Math.floor(maxWork / cost);
  let tested = 0;
  return (r) => {
    if (++tested > maxTested) throw new FilterTooCostlyError(maxTested, cost);
    return match(r);
  };
}

function slicePage(source: readonly EventLogRecord[], lo: number, hi: number, ascending: boolean, skip: number, limit: number) {
  const count = Math.max(0, Math.min(limit, hi - lo - skip));
  const page = new Array<EventLogRecord>(count);
  for (let k = 0; k < count; k++) page[k] = source[ascending ? lo + skip + k : hi - 1 - skip - k] as EventLogRecord;
  return page;
}

function walkFiltered(
  source: readonly EventLogRecord[],
  lo: number,
  hi: number,
  ascending: boolean,
  skip: number,
  limit: number,
  match: (r: EventLogRecord) => boolean,
) {
  const page: EventLogRecord[] = [];
  let toSkip = skip;
  const step = ascending ? 1 : -1;
  for (let i = ascending ? lo : hi - 1; ascending ? i < hi : i >= lo; i += step) {
    const r = source[i] as EventLogRecord;
    if (!match(r)) continue;
    if (toSkip > 0) {
      toSkip--;
      continue;
    }
    page.push(r);
    if (page.length >= limit) break;
  }
  return page;
}

/**
 * Sorts by a dotted field in MongoDB order, ties by _id in the same direction, reversed
 * when `inverse`; then the page. A small page of many records is picked without a full sort.
 */
function sortByField(records: EventLogRecord[], field: string, direction: 'asc' | 'desc', inverse: boolean, skip: number, limit: number) {
  const segments = field.split('.');
  const keyed = records.map((record) => ({ record, key: sortKey(valueAtPath(record, segments), direction) }));
  const sign = (direction === 'asc' ? 1 : -1) * (inverse ? -1 : 1);
  const compare = (a: Keyed, b: Keyed) => sign * (compareValues(a.key, b.key) || compareStrings(a.record._id, b.record._id));
  const end = skip + limit;
  const ordered = end * 4 < keyed.length ? firstK(keyed, end, compare) : keyed.sort(compare);
  return ordered.slice(skip, end === Infinity ? undefined : end).map((k) => k.record);
}

interface Keyed {
  readonly record: EventLogRecord;
  readonly key: unknown;
}
