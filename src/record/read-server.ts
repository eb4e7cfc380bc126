// The reading half of `record`: the current user, the event log up to its newest record when
// the run starts (paged by time) and the block log (paged by skip), through the read-only source.
import { createProgress } from './progress.js';
import { pageBySkip } from './page-by-skip.js';
import { PagingError, pageByTime } from './page-by-time.js';
import { SourceError, type Source } from './source.js';

/** What of the logs is read: the time window, and the bounds of the paging. */
export interface ReadWindow {
  readonly since?: number;
  readonly until?: number;
  readonly maxRecords: number;
  readonly pageSize: number;
}

/** What was read, as the server answered it (not yet checked). */
export interface ServerRead {
  readonly user: unknown;
  readonly events: readonly unknown[];
  readonly blocks: { readonly records: readonly unknown[]; readonly status: string };
  readonly maxRecordsReached: boolean;
  /** The end of the time range recorded. */
  readonly to: number;
}

const arrayOf = (json: unknown, operationId: string): readonly unknown[] => {
  if (!Array.isArray(json)) throw new SourceError(`${operationId} answered 200 with JSON that is not an array`);
  return json;
};

/** A record's timestamp when it is an integer, else undefined. */
export const integerTimestamp = (record: unknown): number | undefined => {
  const t = (record as { timestamp?: unknown } | null)?.timestamp;
  return Number.isSafeInteger(t) ? (t as number) : undefined;
};

/** The server's clock at its first answer, from the Date header (whole seconds), else ours. */
function serverNow(headers: Readonly<Record<string, string | string[]>>): number {
  const date = Date.parse(String(headers.date ?? ''));
  return Number.isFinite(date) ? date : Date.now();
}

const timeQuery = (q: { from?: number; to?: number; skip?: number; limit?: number }): Record<string, string> =>
  Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined).map(([k, v]) => [k, String(v)]));

/** The block log, or why it could not be read (a user without manage-users gets 403). */
async function recordBlocks(source: Source, options: ReadWindow, until: number, print: (line: string) => void): Promise<{ records: readonly unknown[]; status: string }> {
  const first = await source.fetch('getLimitBlockLog', { limit: '1', ...timeQuery({ from: options.since }) });
  const status = first.response?.status;
  if (status === 403 || status === 404) return { records: [], status: `not recorded: getLimitBlockLog answered ${status}` };
  const progress = createProgress('block log', { from: options.since, to: until }, print);
  const paged = await pageBySkip({
    fetch: async (q) => arrayOf((await source.get('getLimitBlockLog', timeQuery(q))).json, 'getLimitBlockLog'),
    since: options.since,
    until,
    pageSize: options.pageSize,
    maxRecords: options.maxRecords,
    onPage: (taken, reached) => progress.update(taken, reached),
  });
  progress.done(paged.records.length);
  return { records: paged.records, status: 'recorded' };
}

/** Logs in and reads the current user, the event log and the block log; the caller logs out. */
export async function readServer(source: Source, options: ReadWindow, print: (line: string) => void): Promise<ServerRead> {
  let events: readonly unknown[] = [];
  let maxRecordsReached = false;
  await source.logIn();
  const me = await source.get('getCurrentUser');
  const user = me.json;
  const now = serverNow(me.exchange.response?.headers ?? {}) - 1;
  // The newest record when the run starts bounds the event log: later ones are not taken.
  const bounds = timeQuery({ from: options.since, to: options.until });
  const newest = arrayOf((await source.get('getEventLog', { ...bounds, sortField: 'timestamp', sortDirection: 'desc', limit: '1' })).json, 'getEventLog');
  const newestTime = newest.length > 0 ? integerTimestamp(newest[0]) : undefined;
  if (newest.length > 0 && newestTime === undefined) throw new PagingError('the newest record has no integer timestamp: the log cannot be paged by time');
  const to = options.until ?? Math.max(now, newestTime ?? now);
  if (newestTime !== undefined) {
    const progress = createProgress('event log', { from: options.since, to: newestTime }, print);
    const paged = await pageByTime({
      fetch: async (q) => arrayOf((await source.get('getEventLog', { ...timeQuery(q), sortField: 'timestamp', sortDirection: 'asc' })).json, 'getEventLog'),
      since: options.since,
      to: newestTime,
      pageSize: options.pageSize,
      maxRecords: options.maxRecords,
      keyOf: (r) => (typeof (r as { _id?: unknown } | null)?._id === 'string' ? (r as { _id: string })._id : undefined),
      onPage: (taken, reached) => progress.update(taken, reached),
    });
    progress.done(paged.records.length);
    events = paged.records;
    maxRecordsReached = paged.maxRecordsReached;
    if (maxRecordsReached) print(`event log: stopped at --max-records ${options.maxRecords.toLocaleString('en-US')}; newer records were left out`);
  }
  const blocks = await recordBlocks(source, options, options.until ?? now, print);
  return { user, events, blocks, maxRecordsReached, to };
}
