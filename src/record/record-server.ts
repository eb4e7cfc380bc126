// `record`: a server's event log, block log and current user, read-only, into a folder the fake
// serves. Fetch everything (bounded), check it against the document, anonymize and mask it,
// then write it whole or not at all.
import { randomBytes } from 'node:crypto';
import type { Credentials } from '../contract/client/api-client.js';
import { UsageError } from '../contract/errors.js';
import { startDeadline } from '../contract/run/deadline.js';
import type { Secrets } from '../contract/secrets.js';
import { createSpecValidator, loadSpec, schemaProblem, describeRecordProblem, type Spec } from '../spec/index.js';
import { RECORDING_FILES, type InvalidRecordNote, type RecordingManifest } from '../shared/recording-layout.js';
import { createAnonymizer } from './anonymize.js';
import { checkBlocks, checkEvents } from './check-records.js';
import { pageBySkip } from './page-by-skip.js';
import { PagingError, pageByTime } from './page-by-time.js';
import { createProgress } from './progress.js';
import { createScrubber } from './scrub.js';
import { openSource, SourceError, type Source } from './source.js';
import { assertWritableOut, writeRecording } from './write-recording.js';

export interface RecordOptions {
  readonly baseUrl: string;
  readonly admin: Credentials;
  readonly out: string;
  readonly since?: number;
  readonly until?: number;
  readonly maxRecords: number;
  readonly pageSize: number;
  readonly keepInvalid?: boolean;
  readonly anonymize?: boolean;
  readonly timeoutMs?: number;
  readonly maxWaitMs: number;
  readonly maxDurationMs?: number;
  readonly secrets: Secrets;
  readonly kit: { readonly name: string; readonly version: string };
  readonly spec?: Spec;
  readonly sleep?: (ms: number) => Promise<void>;
  /** Progress lines (stderr). */
  readonly progress?: (line: string) => void;
}

export interface RecordResult {
  readonly out: string;
  readonly manifest: RecordingManifest;
  /** The recorded user's login and the placeholder password the recording gives it. */
  readonly login?: { readonly login: string; readonly password: string };
  /** Why there is no users file, when there is none. */
  readonly userProblem?: string;
  /** Strings in which a secret was masked. */
  readonly masked: number;
}

const MAX_NOTES = 1000;
const realSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Only scheme, host, port and path: never userinfo or a query. */
function sourceOf(baseUrl: string): string {
  const url = new URL(baseUrl);
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/$/, '')}`;
}

const arrayOf = (json: unknown, operationId: string): readonly unknown[] => {
  if (!Array.isArray(json)) throw new SourceError(`${operationId} answered 200 with JSON that is not an array`);
  return json;
};

const integerTimestamp = (record: unknown): number | undefined => {
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
async function recordBlocks(source: Source, options: RecordOptions, until: number, print: (line: string) => void): Promise<{ records: readonly unknown[]; status: string }> {
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

export async function recordServer(options: RecordOptions): Promise<RecordResult> {
  const print = options.progress ?? (() => undefined);
  if (options.since !== undefined && options.until !== undefined && options.since > options.until) throw new UsageError('--since is after --until');
  await assertWritableOut(options.out);
  const spec = options.spec ?? (await loadSpec());
  const validator = createSpecValidator(spec);
  const { secrets } = options;
  secrets.addCredentials(options.admin);
  secrets.addUrl(options.baseUrl);
  const deadline = startDeadline(options.maxDurationMs);
  const wait = { maxWaitMs: options.maxWaitMs, sleep: options.sleep ?? realSleep };
  const source = openSource({ spec, baseUrl: options.baseUrl, admin: options.admin, secrets, deadline, wait, timeoutMs: options.timeoutMs, pageSize: options.pageSize, onWait: print });
  let user: unknown;
  let events: readonly unknown[] = [];
  let blocks: { records: readonly unknown[]; status: string };
  let maxRecordsReached = false;
  let to: number;
  try {
    print(`Recording ${sourceOf(options.baseUrl)} (read-only: GET requests and a session log-in and log-out)`);
    await source.logIn();
    const me = await source.get('getCurrentUser');
    user = me.json;
    const now = serverNow(me.exchange.response?.headers ?? {}) - 1;
    // The newest record when the run starts bounds the event log: later ones are not taken.
    const bounds = timeQuery({ from: options.since, to: options.until });
    const newest = arrayOf((await source.get('getEventLog', { ...bounds, sortField: 'timestamp', sortDirection: 'desc', limit: '1' })).json, 'getEventLog');
    const newestTime = newest.length > 0 ? integerTimestamp(newest[0]) : undefined;
    if (newest.length > 0 && newestTime === undefined) throw new PagingError('the newest record has no integer timestamp: the log cannot be paged by time');
    to = options.until ?? Math.max(now, newestTime ?? now);
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
    blocks = await recordBlocks(source, options, options.until ?? now, print);
  } finally {
    try {
      await source.logOut();
    } catch {
      // The run's own error, if any, is the one to tell.
    }
    await source.transport.close();
    deadline.clear();
  }

  const checked = checkEvents(events, validator, options.keepInvalid === true);
  const checkedBlocks = checkBlocks(blocks.records, validator);
  const anonymizer = options.anonymize ? createAnonymizer() : undefined;
  anonymizer?.learn([...checked.valid, ...checked.kept], checkedBlocks.valid, user);
  const scrubber = createScrubber(secrets);
  const finish = <T>(record: T, map?: (r: T) => T): T => scrubber.record(map ? map(record) : record);
  const eventFile = checked.valid.map((r) => finish(r, anonymizer?.event));
  const keptFile = checked.kept.map((r) => finish(r, anonymizer?.event));
  const blockFile = checkedBlocks.valid.map((r) => finish(r, anonymizer?.block));

  // The user as a users file holds it: the document's User fields, never its token, and a placeholder password.
  const { id, login, permissions } = (anonymizer ? anonymizer.user(user) : user) as { id?: unknown; login?: unknown; permissions?: unknown };
  const recordedUser = { id, login, ...(permissions === undefined ? {} : { permissions }) };
  const problem = schemaProblem(validator, 'User', recordedUser);
  const password = `recorded-${randomBytes(12).toString('base64url')}`;
  const users = problem ? undefined : [{ ...scrubber.record(recordedUser), password }];

  const times = [...eventFile, ...keptFile, ...blockFile].map(integerTimestamp).filter((t): t is number => t !== undefined);
  const invalid: InvalidRecordNote[] = [...checked.invalid, ...checkedBlocks.invalid];
  const manifest: RecordingManifest = {
    format: 1,
    complete: true,
    kit: options.kit,
    document: { title: spec.document.info.title, version: spec.document.info.version },
    source: sourceOf(options.baseUrl),
    recordedAt: new Date().toISOString(),
    timeRange: { ...(options.since === undefined ? {} : { from: options.since }), to },
    ...(times.length > 0 ? { recordsSpan: { first: times.reduce((a, b) => Math.min(a, b)), last: times.reduce((a, b) => Math.max(a, b)) } } : {}),
    counts: { events: eventFile.length, invalidKept: keptFile.length, invalidSkipped: invalid.length - keptFile.length, blocks: blockFile.length, users: users?.length ?? 0 },
    maxRecordsReached,
    anonymized: options.anonymize === true,
    blockLog: blocks.status,
    invalid: invalid.slice(0, MAX_NOTES).map((note) => scrubber.record(note)),
    files: {
      events: RECORDING_FILES.events,
      ...(keptFile.length > 0 ? { keptInvalid: RECORDING_FILES.keptInvalid } : {}),
      ...(blocks.status === 'recorded' ? { blocks: RECORDING_FILES.blocks } : {}),
      ...(users ? { users: RECORDING_FILES.users } : {}),
    },
  };
  await writeRecording(options.out, { events: eventFile, keptInvalid: keptFile, ...(blocks.status === 'recorded' ? { blocks: blockFile } : {}), ...(users ? { users } : {}) }, manifest, secrets);
  return {
    out: options.out,
    manifest,
    ...(users ? { login: { login: String(users[0]?.login), password } } : { userProblem: `the current user is not a valid User (${describeRecordProblem(problem!)})` }),
    masked: scrubber.masked,
  };
}
