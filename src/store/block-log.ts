import type { BlockedRequest, LimitBlockLogQueryParams } from '../spec/types.js';
import { deepFreeze } from '../shared/deep-freeze.js';

const FIELD_FILTERS = ['ip', 'login', 'uri', 'user'] as const;

const timeOf = (r: BlockedRequest) => r.timestamp ?? -Infinity;
const present = (v: unknown) => typeof v === 'string' && v.length > 0;

/**
 * The log of blocked requests, in timestamp order (records without one first; equal
 * timestamps in the order added). Records are frozen copies. Holds at most `maxRecords`,
 * dropping the oldest, so a flood of blocks cannot exhaust memory.
 *
 * A full log drops its oldest record for each one added. Taken out of the array one by one,
 * that moved every other record each time (170 µs a block at 100,000 records, the request
 * that is blocked paying it); they are marked dropped instead (`#dropped`, the records before
 * that index) and taken out a quarter of the log at a time.
 */
export class BlockLogStore {
  readonly #seed: readonly BlockedRequest[];
  readonly #maxRecords: number;
  #records: BlockedRequest[] = [];
  /** How many records at the start of `#records` are dropped. */
  #dropped = 0;

  constructor(seed: readonly BlockedRequest[] = [], options: { maxRecords?: number } = {}) {
    this.#maxRecords = options.maxRecords ?? 100_000;
    this.restore(seed);
    this.#seed = this.#records.slice();
  }

  get size(): number {
    return this.#records.length - this.#dropped;
  }

  add(record: BlockedRequest): BlockedRequest {
    const stored = deepFreeze(structuredClone(record));
    const t = timeOf(stored);
    const records = this.#records;
    let i = records.length;
    while (i > this.#dropped && timeOf(records[i - 1] as BlockedRequest) > t) i--; // blocks arrive in time order: nearly always no step
    if (i === records.length) records.push(stored);
    else records.splice(i, 0, stored);
    if (this.size > this.#maxRecords) this.#dropped++;
    if (this.#dropped > 0 && this.#dropped >= Math.max(1, this.#maxRecords >> 2)) {
      records.splice(0, this.#dropped);
      this.#dropped = 0;
    }
    return stored;
  }

  /** The records kept, oldest first (the array itself when none is dropped). */
  #kept(): BlockedRequest[] {
    return this.#dropped === 0 ? this.#records : this.#records.slice(this.#dropped);
  }

  /** The records a query selects (valid values: the server checks the parameters), oldest first. */
  query(q: LimitBlockLogQueryParams = {}): BlockedRequest[] {
    const matches = this.#kept().filter((r) => {
      if (q.from !== undefined && !(r.timestamp !== undefined && r.timestamp >= q.from)) return false;
      if (q.to !== undefined && !(r.timestamp !== undefined && r.timestamp <= q.to)) return false;
      return FIELD_FILTERS.every((f) => q[f] !== true || present(r[f]));
    });
    const skip = q.skip ?? 0;
    return matches.slice(skip, q.limit === undefined ? undefined : skip + q.limit);
  }

  /** Empties the log; returns how many records it held. */
  clear(): number {
    const count = this.size;
    this.#records = [];
    this.#dropped = 0;
    return count;
  }

  snapshot(): BlockedRequest[] {
    return this.#records.slice(this.#dropped);
  }

  restore(records: readonly BlockedRequest[]): void {
    const copies = records.map((r) => (Object.isFrozen(r) ? r : deepFreeze(structuredClone(r))));
    // A stable sort keeps the order of equal timestamps.
    copies.sort((a, b) => timeOf(a) - timeOf(b) || 0);
    this.#records = copies.slice(Math.max(0, copies.length - this.#maxRecords));
    this.#dropped = 0;
  }

  /** Back to the seed records. */
  reset(): void {
    this.restore(this.#seed);
  }
}
