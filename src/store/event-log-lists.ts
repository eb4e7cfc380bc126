import type { EventLogRecord } from '../spec/types.js';
import { compareByTime, insertInOrder, replaceInOrder } from './record-order.js';

// The event log's ordered arrays, apart from its index by _id: how records are put in them
// without disturbing a query that is walking them, and copies of them (the seed's, for a reset).

/** A copy of the ordered arrays, all and per type. */
export interface ListsCopy {
  readonly all: readonly EventLogRecord[];
  readonly byType: ReadonlyMap<EventLogRecord['type'], readonly EventLogRecord[]>;
}

const copyOf = (lists: ListsCopy) => ({ all: lists.all.slice(), byType: new Map([...lists.byType].map(([t, list]) => [t, list.slice()])) });

/**
 * The records in (timestamp, _id) order, all and per type. Arrays that a query computing in
 * slices is walking are changed only as copies (copy on write), so that the query sees the
 * records as they were when it started.
 */
export class EventLogLists {
  all: EventLogRecord[] = [];
  byType = new Map<EventLogRecord['type'], EventLogRecord[]>();
  readonly #walked = new WeakSet<readonly EventLogRecord[]>();

  /** The records of one type, or all of them. */
  of(type: EventLogRecord['type'] | undefined): readonly EventLogRecord[] {
    return type === undefined ? this.all : (this.byType.get(type) ?? []);
  }

  /** An array a query is walking: from now on it is changed only as a copy. */
  walked(records: readonly EventLogRecord[]): void {
    this.#walked.add(records);
  }

  /** Puts stored records, whose _ids are new, in their places. */
  add(stored: readonly EventLogRecord[]): void {
    if (stored.length <= 16) {
      for (const r of stored) {
        insertInOrder(this.#ownAll(), r);
        insertInOrder(this.#typeArray(r.type), r);
      }
    } else {
      // Many at once: merge by sorting, which is nearly linear on two sorted runs.
      this.all = this.all.concat([...stored].sort(compareByTime)).sort(compareByTime);
      for (const type of new Set(stored.map((r) => r.type))) {
        this.byType.set(type, this.#typeArray(type).concat(stored.filter((r) => r.type === type).sort(compareByTime)).sort(compareByTime));
      }
    }
  }

  /** Puts `next` in the place of `current` (the same record, changed). */
  replace(current: EventLogRecord, next: EventLogRecord): void {
    replaceInOrder(this.#ownAll(), current, next);
    replaceInOrder(this.#typeArray(next.type), current, next);
  }

  /** A copy of the arrays as they are now; records are immutable and shared, so it is cheap. */
  copy(): ListsCopy {
    return copyOf(this);
  }

  /** The arrays as in `copy`, which stays as it is. */
  restore(copy: ListsCopy): void {
    const arrays = copyOf(copy);
    this.all = arrays.all;
    this.byType = arrays.byType;
  }

  /** The array of one type, to change in place. */
  #typeArray(type: EventLogRecord['type']): EventLogRecord[] {
    let list = this.byType.get(type);
    if (!list || this.#walked.has(list)) this.byType.set(type, (list = list?.slice() ?? []));
    return list;
  }

  /** The array of all records, to change in place. */
  #ownAll(): EventLogRecord[] {
    if (this.#walked.has(this.all)) this.all = this.all.slice();
    return this.all;
  }
}
