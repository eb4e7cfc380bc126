// Paging a log whole while records keep arriving: the event log by time, the block log (no sort
// parameters, no record ids) by skip, each within an upper bound fixed when the run starts.

/** One page request: the time bounds (inclusive) and the position within them. */
export interface PageQuery {
  readonly from?: number;
  readonly to: number;
  readonly skip: number;
  readonly limit: number;
}

interface PageOptions<T, Query> {
  readonly fetch: (query: Query) => Promise<readonly T[]>;
  readonly since?: number;
  readonly pageSize: number;
  /** Stop after this many records. */
  readonly maxRecords: number;
  /** Told after each page: records taken so far and the timestamp reached. */
  readonly onPage?: (taken: number, reached: number | undefined) => void;
}

interface PageByTimeOptions<T> extends PageOptions<T, PageQuery> {
  readonly to: number;
  /** A record's identity, when it has one; a record seen before is not taken again. */
  readonly keyOf: (record: T) => string | undefined;
}

interface PageBySkipOptions<T> extends PageOptions<T, Omit<PageQuery, 'to'>> {
  /** The upper bound (inclusive): records after it end the paging. */
  readonly until: number;
}

interface PagedRecords<T> {
  readonly records: T[];
  /** --max-records stopped the paging with records left. */
  readonly maxRecordsReached: boolean;
}

/** The server's answers cannot be paged safely (no timestamps, out of order, outside the bounds, skip ignored). */
export class PagingError extends Error {}

/** A record's timestamp when it is an integer, else undefined. */
export const integerTimestamp = (record: unknown): number | undefined => {
  const t = (record as { timestamp?: unknown } | null | undefined)?.timestamp;
  return Number.isSafeInteger(t) ? (t as number) : undefined;
};

/** Throws when a page is the one before it: a server that ignores skip sends the same page again and again. */
function samePageCheck(): (page: readonly unknown[]) => void {
  let previous: string | undefined;
  return (page) => {
    const text = JSON.stringify(page);
    if (text === previous) throw new PagingError('the same page came twice: the server ignores skip');
    previous = text;
  };
}

// By time, ascending, within an upper bound fixed at the start (records arriving later neither shift
// the pages nor slip in). The cursor is the last timestamp taken and how many of it were taken.
export async function pageByTime<T>(options: PageByTimeOptions<T>): Promise<PagedRecords<T>> {
  const { to, pageSize, maxRecords, keyOf } = options;
  const records: T[] = [];
  const seen = new Set<string>();
  let from = options.since;
  let skip = 0;
  const checkPage = samePageCheck();
  for (;;) {
    const left = maxRecords - records.length;
    // One more than is left tells whether --max-records cuts the log short.
    const page = await options.fetch({ ...(from === undefined ? {} : { from }), to, skip, limit: Math.min(pageSize, left + 1) });
    if (page.length === 0) return { records, maxRecordsReached: false };
    const times = page.map((record, i) => {
      const t = integerTimestamp(record);
      if (t === undefined) throw new PagingError(`a record without an integer timestamp (position ${skip + i} from ${from ?? 'the start'}): the log cannot be paged by time`);
      return t;
    });
    times.forEach((t, i) => {
      if (t > to || (from !== undefined && t < from)) throw new PagingError(`a record with timestamp ${t} outside the asked range ${from ?? ''}..${to}: the server ignores from/to`);
      if (i > 0 && t < (times[i - 1] as number)) throw new PagingError(`records out of timestamp order (${times[i - 1]} before ${t}): the server does not sort ascending by timestamp`);
    });
    checkPage(page);
    let fresh = 0;
    for (const record of page) {
      // A record the server sent again (the same key) is left out.
      const key = keyOf(record);
      if (key !== undefined && seen.has(key)) continue;
      if (key !== undefined) seen.add(key);
      if (records.length === maxRecords) return { records, maxRecordsReached: true };
      records.push(record);
      fresh += 1;
    }
    if (fresh === 0) throw new PagingError('a whole page of records taken before: the server ignores skip or its order is not stable');
    const last = times[times.length - 1] as number;
    const atLast = times.filter((t) => t === last).length;
    skip = last === from ? skip + page.length : atLast;
    from = last;
    options.onPage?.(records.length, last);
  }
}

// By skip and limit, oldest first, stopping at the first record after the upper bound; records
// without a timestamp are taken where the server puts them.
export async function pageBySkip<T>(options: PageBySkipOptions<T>): Promise<PagedRecords<T>> {
  const { since, until, pageSize, maxRecords } = options;
  const records: T[] = [];
  let skip = 0;
  let newest: number | undefined;
  const checkPage = samePageCheck();
  for (;;) {
    const left = maxRecords - records.length;
    const page = await options.fetch({ ...(since === undefined ? {} : { from: since }), skip, limit: Math.min(pageSize, left + 1) });
    if (page.length === 0) return { records, maxRecordsReached: false };
    checkPage(page);
    for (const record of page) {
      const t = integerTimestamp(record);
      if (t !== undefined) {
        if (newest !== undefined && t < newest) throw new PagingError(`records out of timestamp order (${newest} before ${t}): the server does not list them oldest first`);
        if (since !== undefined && t < since) throw new PagingError(`a record with timestamp ${t} before the asked "from" ${since}: the server ignores from`);
        if (t > until) return { records, maxRecordsReached: false };
        newest = t;
      }
      if (records.length === maxRecords) return { records, maxRecordsReached: true };
      records.push(record);
    }
    skip += page.length;
    options.onPage?.(records.length, newest);
  }
}
