import { compareStrings } from '../shared/mongo-order.js';

/** What the ordered arrays of a store need of a record. */
export interface TimedRecord {
  readonly _id: string;
  readonly timestamp: number;
}

/** The store order: timestamp, then _id, both ascending. */
export function compareByTime(a: TimedRecord, b: TimedRecord): number {
  return a.timestamp !== b.timestamp ? (a.timestamp < b.timestamp ? -1 : 1) : compareStrings(a._id, b._id);
}

/** First index whose timestamp is >= t (timestamps are integers, so `> t` is `>= t + 1`). */
export function lowerBound(records: readonly TimedRecord[], t: number): number {
  let lo = 0;
  let hi = records.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((records[mid] as TimedRecord).timestamp < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Where `record` belongs (or is) in an array in store order. */
export function positionOf(records: readonly TimedRecord[], record: TimedRecord): number {
  let lo = 0;
  let hi = records.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareByTime(records[mid] as TimedRecord, record) < 0) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function isInTimeOrder(records: readonly TimedRecord[]): boolean {
  for (let i = 1; i < records.length; i++) {
    if (compareByTime(records[i - 1] as TimedRecord, records[i] as TimedRecord) > 0) return false;
  }
  return true;
}

/** Puts `record` in its place in an array in store order. */
export function insertInOrder<T extends TimedRecord>(list: T[], record: T): void {
  // Live records arrive with "now" timestamps, so this is nearly always a push.
  const last = list[list.length - 1];
  if (!last || compareByTime(last, record) < 0) list.push(record);
  else list.splice(positionOf(list, record), 0, record);
}

/** Puts `next` where `current` is in an array in store order (both have the same place). */
export function replaceInOrder<T extends TimedRecord>(list: T[], current: T, next: T): void {
  const i = positionOf(list, current);
  if (list[i] !== current) throw new Error(`The event log index lost record "${current._id}".`);
  list[i] = next;
}
