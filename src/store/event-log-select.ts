import type { FilterLimits } from '../spec/filter-limits.js';
import type { EventLogRecord } from '../spec/types.js';
import type { EventLogQuery } from './event-log-query.js';
import { valueAtPath } from '../shared/field-path.js';
import { filterCost } from './filter-cost.js';
import { compileFilter } from './filter-match.js';
import { compareStrings, compareValues, sortKey } from '../shared/mongo-order.js';
import { lowerBound } from './record-order.js';
import { runInSlices, runToEnd, type SliceBudget } from './sliced-run.js';
import { sortInSteps } from './sliced-sort.js';
import { FirstK } from './top-k.js';

/** The limits a query runs within: from the document's `x-filter-limits`. */
export type QueryLimits = Pick<FilterLimits, 'maxWork' | 'regexInstructionsPerCondition' | 'budgetMs' | 'budgetMicrosPerRecord' | 'sliceMs' | 'maxLongQueries'>;
/** The limits that make a filter's cost: the same answer whatever the machine. */
export type WorkLimits = Pick<QueryLimits, 'maxWork' | 'regexInstructionsPerCondition'>;

/** A filter too costly to answer: it would test too many records, or computed too long; nothing was returned. */
export class FilterTooCostlyError extends Error {
  override readonly name = 'FilterTooCostlyError';
  /** For an error detail of the `filter` parameter. */
  readonly problem: string;
  constructor(problem: string) {
    super(`filter ${problem}`);
    this.problem = problem;
  }
}

const NARROW = 'narrow the time range or the type, or simplify it';
const tooManyTests = (maxTested: number, cost: number) =>
  new FilterTooCostlyError(`is too costly: it would test more than ${maxTested} records with ${cost} conditions; ${NARROW}`);
const tooLong = (budgetMs: number) => new FilterTooCostlyError(`is too costly: it computed longer than its budget of ${Math.round(budgetMs)} ms; ${NARROW}`);

/**
 * The records a checked query selects, in order, at once (however long that takes). With
 * `limits`, throws FilterTooCostlyError when the filter would test more records than
 * `maxWork` allows for its cost.
 */
export function selectRecords(source: readonly EventLogRecord[], q: EventLogQuery, limits?: WorkLimits): EventLogRecord[] {
  return runToEnd((pause) => selectSteps(source, q, limits, pause));
}

/**
 * The same records, computed in slices of `sliceMs` so that other requests are served in
 * between: the answer itself when it takes one slice, else a promise. A query with a filter
 * may compute `budgetMs` plus `budgetMicrosPerRecord` for each record of its time range and
 * type (`clocks.cpuNow`, the process's computing time); past that it ends with
 * FilterTooCostlyError. `clocks.now` is a monotonic clock in ms that ends slices.
 */
export function selectRecordsInSlices(
  source: readonly EventLogRecord[],
  q: EventLogQuery,
  limits: QueryLimits,
  clocks: Pick<SliceBudget, 'now' | 'cpuNow'>,
  walking: (records: readonly EventLogRecord[]) => void,
): EventLogRecord[] | Promise<EventLogRecord[]> {
  const { lo, hi } = timeRange(source, q);
  const maxMs = q.filter ? limits.budgetMs + ((hi - lo) * limits.budgetMicrosPerRecord) / 1000 : Infinity;
  const budget = { maxMs, sliceMs: limits.sliceMs, maxConcurrent: limits.maxLongQueries, ...clocks };
  return runInSlices((pause) => selectSteps(source, q, limits, pause, walking), budget, () => tooLong(maxMs));
}

function timeRange(source: readonly EventLogRecord[], q: EventLogQuery): { lo: number; hi: number } {
  const lo = q.from === undefined ? 0 : lowerBound(source, q.from);
  const hi = q.to === undefined ? source.length : lowerBound(source, Math.floor(q.to) + 1);
  return { lo, hi };
}

/**
 * The query as steps (see sliced-run.ts). Records are already in store order (timestamp,
 * then _id) and of the wanted type. With the default sort field it walks the time range from
 * the wanted end and stops when the page is full, so the common query touches only the
 * records it returns (plus those the filter rejects on the way). Other sort fields sort the
 * matching records. Before the first pause `walking` learns which array the steps go on
 * walking: the store must change it only as a copy from then on.
 */
function* selectSteps(
  source: readonly EventLogRecord[],
  q: EventLogQuery,
  limits: WorkLimits | undefined,
  pause: () => boolean,
  walking: (records: readonly EventLogRecord[]) => void = () => undefined,
): Generator<void, EventLogRecord[], void> {
  const { lo, hi } = timeRange(source, q);
  const skip = q.skip ?? 0;
  const limit = q.limit ?? Infinity;
  if (lo >= hi || limit <= 0) return [];
  const direction = q.sortDirection ?? 'asc';
  const sortField = q.sortField ?? 'timestamp';
  let match: ((r: EventLogRecord) => boolean) | undefined;
  if (q.filter) {
    const test = compileFilter(q.filter);
    if (limits) {
      const cost = filterCost(q.filter, limits.regexInstructionsPerCondition);
      const maxTested = Math.floor(limits.maxWork / cost);
      // Without a page to fill first, every record of the range is tested: known at once.
      if ((sortField !== 'timestamp' || limit === Infinity) && hi - lo > maxTested) throw tooManyTests(maxTested, cost);
      match = budgeted(test, cost, maxTested);
    } else {
      match = test;
    }
  }
  const records = source;
  let told = false;
  const stable = () => {
    if (told) return;
    told = true;
    walking(records);
  };
  if (sortField === 'timestamp') {
    const ascending = (direction === 'asc') !== (q.inverse === true);
    if (!match) return slicePage(records, lo, hi, ascending, skip, limit);
    const page: EventLogRecord[] = [];
    let toSkip = skip;
    const step = ascending ? 1 : -1;
    for (let i = ascending ? lo : hi - 1; ascending ? i < hi : i >= lo; i += step) {
      const r = records[i] as EventLogRecord;
      const matched = match(r);
      if (pause()) {
        stable();
        yield;
      }
      if (!matched) continue;
      if (toSkip > 0) {
        toSkip--;
        continue;
      }
      page.push(r);
      if (page.length >= limit) break;
    }
    return page;
  }
  const keyed: Keyed[] = [];
  const segments = sortField.split('.');
  for (let i = lo; i < hi; i++) {
    const record = records[i] as EventLogRecord;
    if (!match || match(record)) keyed.push({ record, key: sortKey(valueAtPath(record, segments), direction) });
    if ((match || (i & 255) === 255) && pause()) {
      stable();
      yield;
    }
  }
  return yield* sortByKey(keyed, direction, q.inverse === true, skip, limit, pause);
}

/** Counts the records a filter tests and stops the query when they exceed its budget. */
function budgeted(match: (r: EventLogRecord) => boolean, cost: number, maxTested: number): (r: EventLogRecord) => boolean {
  let tested = 0;
  return (r) => {
    if (++tested > maxTested) throw tooManyTests(maxTested, cost);
    return match(r);
  };
}

function slicePage(source: readonly EventLogRecord[], lo: number, hi: number, ascending: boolean, skip: number, limit: number) {
  const count = Math.max(0, Math.min(limit, hi - lo - skip));
  const page = new Array<EventLogRecord>(count);
  for (let k = 0; k < count; k++) page[k] = source[ascending ? lo + skip + k : hi - 1 - skip - k] as EventLogRecord;
  return page;
}

/**
 * Sorts by the keys (a dotted field in MongoDB order), ties by _id in the same direction,
 * reversed when `inverse`; then the page. A small page of many records is picked without a
 * full sort.
 */
function* sortByKey(keyed: Keyed[], direction: 'asc' | 'desc', inverse: boolean, skip: number, limit: number, pause: () => boolean) {
  const sign = (direction === 'asc' ? 1 : -1) * (inverse ? -1 : 1);
  const compare = (a: Keyed, b: Keyed) => sign * (compareValues(a.key, b.key) || compareStrings(a.record._id, b.record._id));
  const end = skip + limit;
  let ordered: Keyed[];
  if (end * 4 < keyed.length) {
    const top = new FirstK(end, compare);
    for (let i = 0; i < keyed.length; i++) {
      top.offer(keyed[i] as Keyed);
      if ((i & 255) === 255 && pause()) yield;
    }
    ordered = top.sorted();
  } else {
    ordered = yield* sortInSteps(keyed, compare, pause);
  }
  return ordered.slice(skip, end === Infinity ? undefined : end).map((k) => k.record);
}

interface Keyed {
  readonly record: EventLogRecord;
  readonly key: unknown;
}
