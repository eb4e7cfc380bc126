// Pages a log that has no sort parameters and no record ids (the block log) by skip and limit,
// oldest first as the document orders it, and stops at the first record after the run's upper
// bound: records that arrive during the run come after it, so they neither shift the pages
// taken nor get in. Records without a timestamp (each field of a blocked request may be
// absent) are taken where the server puts them.
import { PagingError, type PagedRecords } from './page-by-time.js';

export interface PageBySkipOptions<T> {
  readonly fetch: (query: { readonly from?: number; readonly skip: number; readonly limit: number }) => Promise<readonly T[]>;
  readonly since?: number;
  /** The upper bound (inclusive): records after it end the paging. */
  readonly until: number;
  readonly pageSize: number;
  readonly maxRecords: number;
  readonly onPage?: (taken: number, reached: number | undefined) => void;
}

const timestampOf = (record: unknown): number | undefined => {
  const t = record !== null && typeof record === 'object' ? (record as { timestamp?: unknown }).timestamp : undefined;
  return Number.isSafeInteger(t) ? (t as number) : undefined;
};

export async function pageBySkip<T>(options: PageBySkipOptions<T>): Promise<PagedRecords<T>> {
  const { since, until, pageSize, maxRecords } = options;
  const records: T[] = [];
  let skip = 0;
  let newest: number | undefined;
  let previous: string | undefined;
  for (;;) {
    const left = maxRecords - records.length;
    const page = await options.fetch({ ...(since === undefined ? {} : { from: since }), skip, limit: Math.min(pageSize, left + 1) });
    if (page.length === 0) return { records, maxRecordsReached: false, repeated: 0 };
    const text = JSON.stringify(page);
    if (text === previous) throw new PagingError('the same page came twice: the server ignores skip');
    previous = text;
    for (const record of page) {
      const t = timestampOf(record);
      if (t !== undefined) {
        if (newest !== undefined && t < newest) throw new PagingError(`records out of timestamp order (${newest} before ${t}): the server does not list them oldest first`);
        if (since !== undefined && t < since) throw new PagingError(`a record with timestamp ${t} before the asked "from" ${since}: the server ignores from`);
        if (t > until) return { records, maxRecordsReached: false, repeated: 0 };
        newest = t;
      }
      if (records.length === maxRecords) return { records, maxRecordsReached: true, repeated: 0 };
      records.push(record);
    }
    skip += page.length;
    options.onPage?.(records.length, newest);
  }
}
