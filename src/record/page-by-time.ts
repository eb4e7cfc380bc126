// Pages a log in ascending timestamp order within a fixed upper bound, so that records arriving
// during the run (timestamped after the bound) neither shift the pages nor slip in half-way.
// The cursor is the last timestamp taken plus how many records of that timestamp were taken:
// the next page asks `from` that timestamp and skips those. Records are told apart by a key
// (the event log's _id) when there is one, so a record is never taken twice.

/** One page request: the time bounds (inclusive) and the position within them. */
export interface PageQuery {
  readonly from?: number;
  readonly to: number;
  readonly skip: number;
  readonly limit: number;
}

export interface PageByTimeOptions<T> {
  readonly fetch: (query: PageQuery) => Promise<readonly T[]>;
  readonly since?: number;
  readonly to: number;
  readonly pageSize: number;
  /** Stop after this many records. */
  readonly maxRecords: number;
  /** A record's identity, when records have one; a record seen before is not taken again. */
  readonly keyOf?: (record: T) => string | undefined;
  /** Told after each page: records taken so far and the timestamp reached. */
  readonly onPage?: (taken: number, reached: number) => void;
}

export interface PagedRecords<T> {
  readonly records: T[];
  /** --max-records stopped the paging with records left. */
  readonly maxRecordsReached: boolean;
  /** Records the server sent again (same key), left out. */
  readonly repeated: number;
}

/** The server's answers cannot be paged safely (no timestamps, out of order, outside the bounds, skip ignored). */
export class PagingError extends Error {}

const timestampOf = (record: unknown): unknown => (record !== null && typeof record === 'object' ? (record as { timestamp?: unknown }).timestamp : undefined);

export async function pageByTime<T>(options: PageByTimeOptions<T>): Promise<PagedRecords<T>> {
  const { to, pageSize, maxRecords, keyOf } = options;
  const records: T[] = [];
  const seen = new Set<string>();
  let repeated = 0;
  let from = options.since;
  let skip = 0;
  let previous: string | undefined;
  for (;;) {
    const left = maxRecords - records.length;
    // One more than is left tells whether --max-records cuts the log short.
    const page = await options.fetch({ ...(from === undefined ? {} : { from }), to, skip, limit: Math.min(pageSize, left + 1) });
    if (page.length === 0) return { records, maxRecordsReached: false, repeated };
    const times = page.map((record, i) => {
      const t = timestampOf(record);
      if (!Number.isSafeInteger(t)) throw new PagingError(`a record without an integer timestamp (position ${skip + i} from ${from ?? 'the start'}): the log cannot be paged by time`);
      return t as number;
    });
    times.forEach((t, i) => {
      if (t > to || (from !== undefined && t < from)) throw new PagingError(`a record with timestamp ${t} outside the asked range ${from ?? ''}..${to}: the server ignores from/to`);
      if (i > 0 && t < (times[i - 1] as number)) throw new PagingError(`records out of timestamp order (${times[i - 1]} before ${t}): the server does not sort ascending by timestamp`);
    });
    // A server that ignores skip sends the same page again and again.
    const text = JSON.stringify(page);
    if (text === previous) throw new PagingError('the same page came twice: the server ignores skip');
    previous = text;
    let fresh = 0;
    for (const record of page) {
      const key = keyOf?.(record);
      if (key !== undefined && seen.has(key)) {
        repeated += 1;
        continue;
      }
      if (key !== undefined) seen.add(key);
      if (records.length === maxRecords) return { records, maxRecordsReached: true, repeated };
      records.push(record);
      fresh += 1;
    }
    if (fresh === 0 && keyOf) throw new PagingError('a whole page of records taken before: the server ignores skip or its order is not stable');
    const last = times[times.length - 1] as number;
    const atLast = times.filter((t) => t === last).length;
    skip = last === from ? skip + page.length : atLast;
    from = last;
    options.onPage?.(records.length, last);
  }
}
