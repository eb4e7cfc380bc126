import type { BlockedRequest, LimitBlockLogQueryParams } from '../spec/types.js';
import { deepFreeze } from '../shared/deep-freeze.js';

const FIELD_FILTERS = ['ip', 'login', 'uri', 'user'] as const;

const timeOf = (r: BlockedRequest) => r.timestamp ?? -Infinity;
const present = (v: unknown) => typeof v === 'string' && v.length > 0;

/**
 * The log of blocked requests, in timestamp order (records without one first; equal
 * timestamps in the order added). Records are frozen copies. Holds at most `maxRecords`,
 * dropping the oldest, so a flood of blocks cannot exhaust memory.
 */
export class BlockLogStore {
  readonly #seed: readonly BlockedRequest[];
  readonly #maxRecords: number;
  #records: BlockedRequest[] = [];

  constructor(seed: readonly BlockedRequest[] = [], options: { maxRecords?: number } = {}) {
    this.#maxRecords = options.maxRecords ?? 100_000;
    this.restore(seed);
    this.#seed = this.#records.slice();
  }

  get size(): number {
    return this.#records.length;
  }

  add(record: BlockedRequest): BlockedRequest {
    const stored = deepFreeze(structuredClone(record));
    const t = timeOf(stored);
    let i = this.#records.length;
    while (i > 0 && timeOf(this.#records[i - 1] as BlockedRequest) > t) i--; // blocks arrive in time order: nearly always no step
    this.#records.splice(i, 0, stored);
    if (this.#records.length > this.#maxRecords) this.#records.splice(0, this.#records.length - this.#maxRecords);
    return stored;
  }

  /** The records a query selects (valid values: the server checks the parameters), oldest first. */
  query(q: LimitBlockLogQueryParams = {}): BlockedRequest[] {
    const matches = this.#records.filter((r) => {
      if (q.from !== undefined && !(r.timestamp !== undefined && r.timestamp >= q.from)) return false;
      if (q.to !== undefined && !(r.timestamp !== undefined && r.timestamp <= q.to)) return false;
      return FIELD_FILTERS.every((f) => q[f] !== true || present(r[f]));
    });
    const skip = q.skip ?? 0;
    return matches.slice(skip, q.limit === undefined ? undefined : skip + q.limit);
  }

  /** Empties the log; returns how many records it held. */
  clear(): number {
    const count = this.#records.length;
    this.#records = [];
    return count;
  }

  snapshot(): BlockedRequest[] {
    return this.#records.slice();
  }

  restore(records: readonly BlockedRequest[]): void {
    const copies = records.map((r) => (Object.isFrozen(r) ? r : deepFreeze(structuredClone(r))));
    // A stable sort keeps the order of equal timestamps.
    copies.sort((a, b) => timeOf(a) - timeOf(b) || 0);
    this.#records = copies.slice(Math.max(0, copies.length - this.#maxRecords));
  }

  /** Back to the seed records. */
  reset(): void {
    this.restore(this.#seed);
  }
}
