// The reading half of `record`: the server read-only (one session log-in, GET requests, the
// log-out) through the contract runner's client, so the same transport deadline, body cap,
// no-redirect rule, read-only guard, secret list and bounded waits for blocks apply; the current
// user, the event log up to its newest record when the run starts (paged by time) and the block
// log (paged by skip), with a progress line at most a second.
import { JSON_LIMITS, createTransport, type Transport } from '../contract/client/transport.js';
import { createApiClient, type ApiClient, type Credentials } from '../contract/client/api-client.js';
import { StoppedError, UsageError } from '../contract/errors.js';
import { createRandom } from '../contract/random.js';
import { waitingOutBlocks, type Wait, type Deadline } from '../contract/run/run-contract.js';
import type { SafetyPolicy } from '../contract/safety.js';
import type { Secrets } from '../shared/redaction/secret-values.js';
import type { Exchange } from '../contract/types.js';
import type { Spec } from '../spec/index.js';
import { integerTimestamp, pageBySkip, PagingError, pageByTime } from './paging.js';

const count = (n: number): string => n.toLocaleString('en-US');

/** A log's progress line, at most one a second: records taken, their rate, how far through the time range and the time left. */
function createProgress(label: string, range: { from?: number; to: number }, print: (line: string) => void, now: () => number = Date.now) {
  const started = now();
  let shown = started;
  let first = range.from;
  const elapsed = () => Math.max(0.001, (now() - started) / 1000);
  return {
    update(taken: number, reached: number | undefined): void {
      if (now() - shown < 1000) return;
      shown = now();
      first ??= reached;
      const seconds = elapsed();
      const parts = [`${label}: ${count(taken)} records`, `${count(Math.round(taken / seconds))}/s`];
      if (reached !== undefined && first !== undefined && range.to > first) {
        const done = Math.min(1, Math.max(0, (reached - first) / (range.to - first)));
        parts.push(`${Math.floor(done * 100)}% of the time range`);
        if (done > 0 && done < 1) parts.push(`about ${Math.ceil((seconds * (1 - done)) / done)} s left`);
      }
      print(parts.join(', '));
    },
    /** The last line of a log, whatever the time. */
    done: (taken: number): void => print(`${label}: ${count(taken)} records in ${elapsed().toFixed(1)} s`),
  };
}

const READ_ONLY: SafetyPolicy = { writes: false, probeLimits: false, reason: 'read-only (record never writes)' };

/** Attempts of a request that got no answer at all (a dropped connection, a timeout). */
const ATTEMPTS = 3;
const RETRY_PAUSE_MS = 1000;

export interface SourceOptions {
  readonly spec: Spec;
  readonly baseUrl: string;
  readonly admin: Credentials;
  readonly secrets: Secrets;
  readonly deadline: Deadline;
  readonly wait: Wait;
  readonly timeoutMs?: number;
  /** Records asked for in one page: what is read and parsed of an answer grows with it. */
  readonly pageSize: number;
  /** Told when a block (429) is waited out, and when a request without an answer is tried again. */
  readonly onWait?: (what: string) => void;
}

/** What the server answered with an unexpected status: exit 2 with its words. */
export class SourceError extends Error {}

type Source = ReturnType<typeof openSource>;

export function openSource(options: SourceOptions) {
  const { spec, secrets, deadline, wait } = options;
  // What is read and parsed of one answer: room for a page of records far larger than usual (traps
  // with many bindings), and still a bound, so a server cannot make the run hold more.
  const maxBodyBytes = Math.max(1024 * 1024, 8 * 1024 * options.pageSize);
  const json = { ...JSON_LIMITS, maxValues: Math.max(JSON_LIMITS.maxValues, 200 * options.pageSize) };
  let transport: Transport;
  try {
    transport = createTransport({ baseUrl: options.baseUrl, timeoutMs: options.timeoutMs, maxBodyBytes, json, signal: deadline.signal });
  } catch (error) {
    throw new UsageError(`bad base URL "${options.baseUrl}": ${error instanceof Error ? error.message : String(error)}`);
  }
  const origin = transport.baseUrl.origin;
  const client: ApiClient = createApiClient({
    spec,
    transport,
    policy: READ_ONLY,
    secrets,
    // The client draws only for deliberately wrong credentials, which recording never sends.
    random: createRandom(0, 'record'),
    admin: options.admin,
    keepExchanges: false,
  });
  let calls = 0;

  /** The answer to a GET whatever its status (for operations the user may not be allowed), after waiting out blocks and retrying a dropped request. */
  async function fetch(operationId: string, query: Readonly<Record<string, string>> = {}): Promise<Exchange> {
    const send = (): Promise<Exchange> => client.call({ operationId, key: `record/${operationId}/${(calls += 1)}`, query });
    for (let attempt = 1; ; attempt++) {
      deadline.doing(operationId);
      const exchange = await waitingOutBlocks(send, {
        wait,
        deadline,
        what: operationId,
        baseUrl: origin,
        onWait: (ms, after) => options.onWait?.(`blocked (429 on ${operationId}, Retry-After ${after ?? '?'}): waiting ${Math.round(ms / 1000)} s`),
      });
      if (exchange.response && !exchange.error) return exchange;
      // An answer too large or too deep to read will be so again: no retry.
      if (exchange.response) throw new SourceError(`${operationId} answered ${exchange.response.status}, but ${exchange.error}: ask for fewer records a page (--page-size)`);
      // No answer: the connection dropped or timed out.
      const why = exchange.error ?? 'no answer';
      if (attempt >= ATTEMPTS) throw new StoppedError(`stopped: ${operationId} got no complete answer from ${origin} in ${ATTEMPTS} attempts (the last: ${why})`);
      options.onWait?.(`no complete answer to ${operationId} (${why}): trying again in 1 s`);
      await deadline.sleep(RETRY_PAUSE_MS, wait.sleep);
    }
  }

  return {
    transport,
    fetch,
    /** An answer of 200 with its parsed JSON body. */
    async get(operationId: string, query?: Readonly<Record<string, string>>): Promise<{ json: unknown; exchange: Exchange }> {
      const exchange = await fetch(operationId, query);
      const response = exchange.response!;
      if (response.status === 401) throw new UsageError(`the credentials were refused (401) by ${origin}`);
      const message = (response.json as { message?: unknown } | undefined)?.message;
      if (response.status !== 200) throw new SourceError(`${operationId} answered ${response.status}${typeof message === 'string' ? `: ${message}` : ''}`);
      if (response.json === undefined) throw new SourceError(`${operationId} answered 200 without a JSON body`);
      return { json: response.json, exchange };
    },
    async logIn() {
      // A refused log-in leaves Basic for the GETs, and the first of them tells why.
      await waitingOutBlocks(() => client.openRunSession('record/log-in'), { wait, deadline, what: 'createSession', baseUrl: origin });
    },
    async logOut() {
      await client.closeRunSession('record/log-out');
    },
  };
}

/** What of the logs is read: the time window, and the bounds of the paging. */
export interface ReadWindow {
  readonly since?: number;
  readonly until?: number;
  readonly maxRecords: number;
  readonly pageSize: number;
}

const arrayOf = (json: unknown, operationId: string): readonly unknown[] => {
  if (!Array.isArray(json)) throw new SourceError(`${operationId} answered 200 with JSON that is not an array`);
  return json;
};

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
/** What was read, as the server answered it (not yet checked). */
export type ServerRead = Awaited<ReturnType<typeof readServer>>;

export async function readServer(source: Source, options: ReadWindow, print: (line: string) => void) {
  let events: readonly unknown[] = [];
  let maxRecordsReached = false;
  await source.logIn();
  const me = await source.get('getCurrentUser');
  const user = me.json;
  // The server's clock at its first answer, from the Date header (whole seconds), else ours.
  const date = Date.parse(String(me.exchange.response?.headers.date ?? ''));
  const now = (Number.isFinite(date) ? date : Date.now()) - 1;
  // The newest record when the run starts bounds the event log: later ones are not taken.
  const bounds = timeQuery({ from: options.since, to: options.until });
  const newest = arrayOf((await source.get('getEventLog', { ...bounds, sortField: 'timestamp', sortDirection: 'desc', limit: '1' })).json, 'getEventLog');
  const newestTime = newest.length > 0 ? integerTimestamp(newest[0]) : undefined;
  if (newest.length > 0 && newestTime === undefined) throw new PagingError('the newest record has no integer timestamp: the log cannot be paged by time');
  // The end of the time range recorded.
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
