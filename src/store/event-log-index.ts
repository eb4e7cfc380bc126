import type { EventLogRecord } from '../spec/types.js';
import { deepFreeze } from '../shared/deep-freeze.js';
import { unstorableReason } from '../shared/storable-record.js';
import { compareByTime } from './record-order.js';

// Records the event log froze itself; they are shared between snapshots, the seed and queries.
const owned = new WeakSet<object>();

/** The stored form of a record: a frozen copy, or the record itself frozen in place when adopted. */
export function own(record: EventLogRecord, adopt = false): EventLogRecord {
  if (owned.has(record)) return record;
  const problem = unstorableReason(record);
  if (problem) throw new Error(`Cannot store event log record ${JSON.stringify(record?._id)}: ${problem}.`);
  const stored = deepFreeze(adopt ? record : structuredClone(record));
  owned.add(stored);
  return stored;
}

/** A record the store made itself (frozen already), e.g. an update's copy. */
export function ownMade<T extends EventLogRecord>(record: T): T {
  owned.add(deepFreeze(record));
  return record;
}

/** The records in (timestamp, _id) order, the same per type, and by _id. */
export interface EventLogIndex {
  readonly all: EventLogRecord[];
  readonly byType: Map<EventLogRecord['type'], EventLogRecord[]>;
  readonly byId: Map<string, EventLogRecord>;
}

/**
 * Indexes records that come a slice at a time, as work that yields after each piece of about
 * `sliceSize` records (the number it went through), so that a caller may spread it over turns
 * of the event loop or run it to its end at once. Throws on an unusable record or a repeated
 * _id. Records that come in order are appended; the few that do not (fixtures after generated
 * records) are sorted apart and merged in, so no step sorts the whole log.
 */
export function* indexRecords(slices: Iterator<readonly EventLogRecord[]>, adopt: boolean, sliceSize: number): Generator<number, EventLogIndex, void> {
  const inOrder: EventLogRecord[] = [];
  const strays: EventLogRecord[] = [];
  const byId = new Map<string, EventLogRecord>();
  for (let slice = slices.next(); slice.done !== true; slice = slices.next()) {
    for (const given of slice.value) {
      const record = own(given, adopt);
      if (byId.has(record._id)) throw new Error(`Two event log records have the _id "${record._id}".`);
      byId.set(record._id, record);
      const last = inOrder[inOrder.length - 1];
      if (last === undefined || compareByTime(last, record) < 0) inOrder.push(record);
      else strays.push(record);
    }
    yield slice.value.length;
  }
  const all = strays.length === 0 ? inOrder : yield* merged(inOrder, strays.sort(compareByTime), sliceSize);
  const byType = new Map<EventLogRecord['type'], EventLogRecord[]>();
  for (let i = 0; i < all.length; i++) {
    const record = all[i] as EventLogRecord;
    let list = byType.get(record.type);
    if (!list) byType.set(record.type, (list = []));
    list.push(record);
    if ((i + 1) % sliceSize === 0) yield sliceSize;
  }
  return { all, byType, byId };
}

/** Two runs in store order as one, yielding after every `sliceSize` records. */
function* merged(a: readonly EventLogRecord[], b: readonly EventLogRecord[], sliceSize: number): Generator<number, EventLogRecord[], void> {
  const out = new Array<EventLogRecord>(a.length + b.length);
  let i = 0;
  let j = 0;
  for (let k = 0; k < out.length; k++) {
    out[k] = (j >= b.length || (i < a.length && compareByTime(a[i] as EventLogRecord, b[j] as EventLogRecord) < 0) ? a[i++] : b[j++]) as EventLogRecord;
    if ((k + 1) % sliceSize === 0) yield sliceSize;
  }
  return out;
}

/** The index of records given at once. */
export function indexAtOnce(records: readonly EventLogRecord[], adopt: boolean): EventLogIndex {
  const work = indexRecords([records][Symbol.iterator](), adopt, Infinity);
  for (;;) {
    const step = work.next();
    if (step.done === true) return step.value;
  }
}

/** Throws, as indexing would, when a record is unusable or two share an _id; for a caller that must check before it changes anything. */
export function checkStorable(records: readonly EventLogRecord[]): void {
  const ids = new Set<string>();
  for (const r of records) {
    const problem = unstorableReason(r);
    if (problem) throw new Error(`Cannot store event log record ${JSON.stringify(r?._id)}: ${problem}.`);
    if (ids.has(r._id)) throw new Error(`Two event log records have the _id "${r._id}".`);
    ids.add(r._id);
  }
}
