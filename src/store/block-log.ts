import type { BlockedRequest, LimitBlockLogQueryParams } from '../spec/types.js';
import { deepFreeze } from '../shared/deep-freeze.js';
import type { ParseResult, QueryProblem } from './event-log-query.js';

/** The getLimitBlockLog query parameters as they may arrive (typed by the document, checked here anyway). */
export type RawLimitBlockLogQueryParams = { readonly [K in keyof LimitBlockLogQueryParams]?: unknown };

const FIELD_FILTERS = ['ip', 'login', 'uri', 'user'] as const;

function integer(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : undefined;
  if (typeof value === 'string' && /^-?[0-9]{1,16}$/.test(value)) return Number(value);
  return undefined;
}

/**
 * Checks and converts getLimitBlockLog query parameters per the document's gap-fills:
 * integer bounds with `from` not above `to`, non-negative limit and skip, boolean field
 * filters. Never throws.
 */
export function parseLimitBlockLogQuery(params: RawLimitBlockLogQueryParams): ParseResult<LimitBlockLogQueryParams> {
  const problems: QueryProblem[] = [];
  const query: LimitBlockLogQueryParams = {};
  try {
    const p = (params ?? {}) as RawLimitBlockLogQueryParams;
    for (const name of ['from', 'to', 'limit', 'skip'] as const) {
      if (p[name] === undefined) continue;
      const n = integer(p[name]);
      const counting = name === 'limit' || name === 'skip';
      if (n === undefined || (counting && n < 0)) {
        problems.push({ name, problem: counting ? 'must be a non-negative integer' : 'must be an integer timestamp in milliseconds' });
      } else query[name] = n;
    }
    if (query.from !== undefined && query.to !== undefined && query.from > query.to) {
      problems.push({ name: 'from', problem: `must not be greater than "to" (${query.from} > ${query.to})` });
    }
    for (const name of FIELD_FILTERS) {
      const v = p[name];
      if (v === undefined) continue;
      if (v === true || v === 'true') query[name] = true;
      else if (v === false || v === 'false') query[name] = false;
      else problems.push({ name, problem: 'must be true or false' });
    }
  } catch (e) {
    problems.push({ name: 'query', problem: `cannot be read: ${(e as Error).message}` });
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, query };
}

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

  /** The records a checked query selects (see parseLimitBlockLogQuery), oldest first. */
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
