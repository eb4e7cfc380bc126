// `record`: a server's event log, block log and current user, read-only, into a folder the fake
// serves. Fetch everything (bounded), check it against the document, anonymize and mask it,
// then write it whole or not at all.
import { randomBytes } from 'node:crypto';
import type { Credentials } from '../contract/client/api-client.js';
import { UsageError } from '../contract/errors.js';
import { startDeadline } from '../contract/run/deadline.js';
import type { Secrets } from '../shared/redaction/secret-values.js';
import { createSpecValidator, loadSpec, schemaProblem, describeRecordProblem, type Spec } from '../spec/index.js';
import { RECORDING_FILES, type InvalidRecordNote, type RecordingManifest } from '../shared/recording-layout.js';
import { mapStrings } from '../shared/redaction/secret-fields.js';
import { maskUrlsIn } from '../shared/redaction/mask-url.js';
import { REPORT_MASK } from '../shared/redaction/secret-names.js';
import { createAnonymizer } from './anonymize.js';
import { checkBlocks, checkEvents } from './check-records.js';
import { integerTimestamp, readServer, type ReadWindow, type ServerRead } from './read-server.js';
import { openSource } from './source.js';
import { assertWritableOut, writeRecording } from './write-recording.js';

export interface RecordOptions extends ReadWindow {
  readonly baseUrl: string;
  readonly admin: Credentials;
  readonly out: string;
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
  let read: ServerRead;
  try {
    print(`Recording ${sourceOf(options.baseUrl)} (read-only: GET requests and a session log-in and log-out)`);
    read = await readServer(source, options, print);
  } finally {
    try {
      await source.logOut();
    } catch {
      // The run's own error, if any, is the one to tell.
    }
    await source.transport.close();
    deadline.clear();
  }
  const { user, events, blocks, maxRecordsReached, to } = read;

  const checked = checkEvents(events, validator, options.keepInvalid === true);
  const checkedBlocks = checkBlocks(blocks.records, validator);
  const anonymizer = options.anonymize ? createAnonymizer() : undefined;
  anonymizer?.learn([...checked.valid, ...checked.kept], checkedBlocks.valid, user);
  // No secret reaches a recording: every string (keys too) has the run's secrets masked in every
  // spelling, and the credentials any URL in it carries (secret query parameters, userinfo).
  let masked = 0;
  const scrub = <T>(value: T): T =>
    mapStrings(value, (text) => {
      const out = secrets.mask(maskUrlsIn(text, REPORT_MASK));
      if (out !== text) masked += 1;
      return out;
    }) as T;
  const finish = <T>(record: T, map?: (r: T) => T): T => scrub(map ? map(record) : record);
  const eventFile = checked.valid.map((r) => finish(r, anonymizer?.event));
  const keptFile = checked.kept.map((r) => finish(r, anonymizer?.event));
  const blockFile = checkedBlocks.valid.map((r) => finish(r, anonymizer?.block));

  // The user as a users file holds it: the document's User fields, never its token, and a placeholder password.
  const { id, login, permissions } = (anonymizer ? anonymizer.user(user) : user) as { id?: unknown; login?: unknown; permissions?: unknown };
  const recordedUser = { id, login, ...(permissions === undefined ? {} : { permissions }) };
  const problem = schemaProblem(validator, 'User', recordedUser);
  const password = `recorded-${randomBytes(12).toString('base64url')}`;
  const users = problem ? undefined : [{ ...scrub(recordedUser), password }];

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
    invalid: invalid.slice(0, MAX_NOTES).map((note) => scrub(note)),
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
    masked,
  };
}
