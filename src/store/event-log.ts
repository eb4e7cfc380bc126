import type { EventLogRecord, PayloadUpdate, SnmpTrapRecord } from '../spec/types.js';
import { deepFreeze } from '../shared/deep-freeze.js';
import { valueAtPath } from '../shared/field-path.js';
import { compareStrings, compareValues, sortKey } from '../shared/mongo-order.js';
import { unstorableReason } from '../shared/storable-record.js';
import type { Filter } from './filter-check.js';
import { compileFilter } from './filter-match.js';

// Records the event log froze itself; they are shared between snapshots, the seed and queries.
const owned = new WeakSet<object>();

/** The stored form of a record: a frozen copy, or the record itself frozen in place when adopted. */
function own(record: EventLogRecord, adopt = false): EventLogRecord {
  if (owned.has(record)) return record;
  const problem = unstorableReason(record);
  if (problem) throw new Error(`Cannot store event log record ${JSON.stringify(record?._id)}: ${problem}.`);
  const stored = deepFreeze(adopt ? record : structuredClone(record));
  owned.add(stored);
  return stored;
}

/** Records in (timestamp, _id) order and by _id; throws on an unusable record or a repeated _id. */
function indexed(records: readonly EventLogRecord[], adopt: boolean): { all: EventLogRecord[]; ids: Map<string, EventLogRecord> } {
  const all = records.map((r) => own(r, adopt));
  const ids = new Map<string, EventLogRecord>();
  for (const r of all) {
    if (ids.has(r._id)) throw new Error(`Two event log records have the _id "${r._id}".`);
    ids.set(r._id, r);
  }
  if (all.some((r, i) => i > 0 && compareByTime(all[i - 1]!, r) > 0)) all.sort(compareByTime);
  return { all, ids };
}

/** The event log, in (timestamp, _id) order and by _id; records are frozen, so an update replaces one and snapshots keep what they saw. */
export class EventLogStore {
  #all: EventLogRecord[] = [];
  // The index by _id is a base, never changed once built, plus the records added or replaced
  // since: a reset goes back to the seed's base without rebuilding it.
  #ids = new Map<string, EventLogRecord>();
  #changed = new Map<string, EventLogRecord>();
  #seed: { readonly all: readonly EventLogRecord[]; readonly ids: Map<string, EventLogRecord> } = { all: [], ids: new Map() };
  readonly #adopt: boolean;

  /** Throws on an unusable seed record or a repeated _id. With `adopt`, seed records are frozen in place, not copied. */
  constructor(seed: readonly EventLogRecord[] = [], options: { adopt?: boolean } = {}) {
    this.#adopt = options.adopt === true;
    this.#seed = indexed(seed, this.#adopt);
    this.reset();
  }

  get size(): number {
    return this.#all.length;
  }

  get(id: string): EventLogRecord | undefined {
    return this.#changed.get(id) ?? this.#ids.get(id);
  }

  /** The records a checked query selects, in order. */
  query(q: EventLogQuery = {}): EventLogRecord[] {
    return selectRecords(this.#all, q);
  }

  /** Adds a record (a copy is stored); throws on a duplicate _id or an unusable record. */
  add(record: EventLogRecord): EventLogRecord {
    return this.addAll([record])[0] as EventLogRecord;
  }

  /** Adds records all or none (throws on an unusable record or an _id stored or repeated); returns the stored copies. */
  addAll(records: readonly EventLogRecord[]): EventLogRecord[] {
    const seen = new Set<string>();
    for (const r of records) {
      if (this.get(r?._id) !== undefined || seen.has(r?._id)) throw new Error(`An event log record with _id "${r._id}" already exists.`);
      seen.add(r._id);
    }
    const stored = records.map((r) => own(r));
    // Live records come with "now" timestamps (a push each); a large batch is merged by sorting.
    if (stored.length <= 16) for (const r of stored) this.#all.splice(positionOf(this.#all, r), 0, r);
    else this.#all = this.#all.concat(stored).sort(compareByTime);
    for (const r of stored) this.#changed.set(r._id, r);
    return stored;
  }

  /** Changes the payload's `text` of an SNMP trap record (the document has checked the update); nothing else changes. */
  updatePayload(id: string, update: PayloadUpdate): UpdatePayloadResult {
    const current = this.get(id);
    if (!current) return { ok: false, reason: 'not-found' };
    if (current.type !== 'snmp-trap') return { ok: false, reason: 'not-snmp', type: current.type };
    const next = own({ ...current, payload: { ...current.payload, ...(update.text === undefined ? {} : { text: update.text }) } }, true) as SnmpTrapRecord;
    this.#all[positionOf(this.#all, current)] = next;
    this.#changed.set(id, next);
    return { ok: true, record: next };
  }

  /** The current records in order; cheap, since records are immutable and shared. */
  snapshot(): EventLogRecord[] {
    return this.#all.slice();
  }

  /** Replaces every record; throws (changing nothing) on an unusable record or a duplicate _id. */
  restore(records: readonly EventLogRecord[]): void {
    this.#install(indexed(records, false));
  }

  /** Swaps records of the seed (fixtures whose file changed) in the seed and the log, all or nothing; every other record stays. */
  swapSeedRecords(removed: ReadonlySet<string>, added: readonly EventLogRecord[]): void {
    const keep = (list: readonly EventLogRecord[]) => list.filter((r) => !removed.has(r._id));
    const seed = indexed([...keep(this.#seed.all), ...added], this.#adopt);
    const current = indexed([...keep(this.#all), ...added], false);
    this.#seed = seed;
    this.#install(current);
  }

  /** Back to the records the store was created with. */
  reset(): void {
    this.#install({ all: this.#seed.all.slice(), ids: this.#seed.ids });
  }

  #install(index: { all: EventLogRecord[]; ids: Map<string, EventLogRecord> }): void {
    this.#all = index.all;
    this.#ids = index.ids;
    this.#changed = new Map();
  }
}

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

/**
 * The records a checked query selects, from records in store order. The time range is found by
 * binary search; by timestamp it is walked from the wanted end until the page is full; other sort
 * fields sort the matching records.
 */
export function selectRecords(records: readonly EventLogRecord[], q: EventLogQuery): EventLogRecord[] {
  const lo = q.from === undefined ? 0 : positionOf(records, q.from);
  const hi = q.to === undefined ? records.length : positionOf(records, Math.floor(q.to) + 1);
  const skip = q.skip ?? 0;
  const limit = q.limit ?? Infinity;
  if (lo >= hi || limit <= 0) return [];
  const direction = q.sortDirection ?? 'asc';
  // The test of a record's type and filter; undefined when every record passes.
  const { type } = q;
  const test = q.filter && compileFilter(q.filter);
  const match: ((r: EventLogRecord) => boolean) | undefined = type === undefined ? test : (r) => r.type === type && (!test || test(r));
  if ((q.sortField ?? 'timestamp') === 'timestamp') {
    const ascending = (direction === 'asc') !== (q.inverse === true);
    const step = ascending ? 1 : -1;
    const page: EventLogRecord[] = [];
    let toSkip = skip;
    for (let i = ascending ? lo : hi - 1; i >= lo && i < hi && page.length < limit; i += step) {
      const r = records[i] as EventLogRecord;
      if (match && !match(r)) continue;
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

/** Sorts by the keys (MongoDB order), ties by _id, reversed when `inverse`; a small page of many records is picked without a full sort. */
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

/** The store order: timestamp, then _id, both ascending. */
function compareByTime(a: EventLogRecord, b: EventLogRecord): number {
  return a.timestamp !== b.timestamp ? (a.timestamp < b.timestamp ? -1 : 1) : compareStrings(a._id, b._id);
}

/** The first index whose record is not before `at`: a record, or a timestamp (timestamps are integers, so `> t` is `>= t + 1`). */
function positionOf(records: readonly EventLogRecord[], at: EventLogRecord | number): number {
  let lo = 0;
  let hi = records.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const r = records[mid]!;
    if (typeof at === 'number' ? r.timestamp < at : compareByTime(r, at) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The first `k` items in `compare` order (a total order), offered one at a time: a bounded max-heap, n log k comparisons. */
export class FirstK<T> {
  readonly #heap: T[] = []; // #heap[0] is the largest kept item

  constructor(
    private readonly k: number,
    private readonly compare: (a: T, b: T) => number,
  ) {}

  offer(item: T): void {
    const heap = this.#heap;
    if (heap.length < this.k) {
      heap.push(item);
      this.#up(heap.length - 1);
    } else if (this.k > 0 && this.compare(item, heap[0] as T) < 0) {
      heap[0] = item;
      this.#down(0);
    }
  }

  /** The kept items, sorted. */
  sorted(): T[] {
    return this.#heap.slice().sort(this.compare);
  }

  #up(i: number): void {
    const heap = this.#heap;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.compare(heap[i] as T, heap[parent] as T) <= 0) return;
      [heap[i], heap[parent]] = [heap[parent] as T, heap[i] as T];
      i = parent;
    }
  }

  #down(i: number): void {
    const heap = this.#heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let largest = i;
      if (l < heap.length && this.compare(heap[l] as T, heap[largest] as T) > 0) largest = l;
      if (r < heap.length && this.compare(heap[r] as T, heap[largest] as T) > 0) largest = r;
      if (largest === i) return;
      [heap[i], heap[largest]] = [heap[largest] as T, heap[i] as T];
      i = largest;
    }
  }
}

export type UpdatePayloadResult =
  | { readonly ok: true; readonly record: SnmpTrapRecord }
  | { readonly ok: false; readonly reason: 'not-found' }
  | { readonly ok: false; readonly reason: 'not-snmp'; readonly type: EventLogRecord['type'] };
