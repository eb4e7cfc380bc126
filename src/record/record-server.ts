// `record`: a server's event log, block log and current user, read-only, into a folder the fake
// serves. Fetch everything (bounded), check each record against the document, anonymize and mask
// it, then write the recording whole or not at all.
import { describeRecordProblem, eventRecordProblem, schemaProblem, createSpecValidator, loadSpec, type RecordProblem } from '../spec/index.js';
import { type InvalidRecordNote, RECORDING_FILES, type RecordingManifest } from '../shared/recording-layout.js';
import { unstorableReason } from '../shared/storable-record.js';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { once } from 'node:events';
import { UsageError } from '../contract/errors.js';
import { type Secrets, mapStrings } from '../shared/redaction/secret-values.js';
import { randomBytes } from 'node:crypto';
import type { Credentials } from '../contract/client/api-client.js';
import { startDeadline } from '../contract/run/run-contract.js';
import { maskUrlsIn } from '../shared/redaction/mask-url.js';
import { REPORT_MASK } from '../shared/redaction/secret-names.js';
import { createAnonymizer } from './anonymize.js';
import { integerTimestamp } from './paging.js';
import { readServer, type ReadWindow, type ServerRead, openSource } from './read-server.js';

/** An invalid record is listed with its first problem and left out, or kept apart (--keep-invalid) when the fake can hold it. */
function checkRecords(records: readonly unknown[], log: InvalidRecordNote['log'], problemOf: (record: unknown) => RecordProblem | undefined, keepInvalid = false) {
  // `kept`: invalid records the fake can hold, when --keep-invalid.
  const out = { valid: [] as unknown[], kept: [] as unknown[], invalid: [] as InvalidRecordNote[] };
  for (const record of records) {
    const problem = problemOf(record);
    if (!problem) {
      out.valid.push(record);
      continue;
    }
    const unstorable = keepInvalid ? unstorableReason(record) : undefined;
    const kept = keepInvalid && unstorable === undefined;
    if (kept) out.kept.push(record);
    // The record's _id and timestamp, when they are usable.
    const { _id, timestamp } = (record ?? {}) as { _id?: unknown; timestamp?: unknown };
    const identity = { ...(typeof _id === 'string' ? { _id } : {}), ...(Number.isSafeInteger(timestamp) ? { timestamp: timestamp as number } : {}) };
    out.invalid.push({ log, ...identity, problem: describeRecordProblem(problem) + (unstorable ? `; the fake cannot hold it (${unstorable})` : ''), kept });
  }
  return out;
}

/** --out must be a new folder or an empty one; checked before recording, so no run is wasted. */
export async function assertWritableOut(out: string): Promise<void> {
  const path = resolve(out);
  const found = await stat(path).catch(() => undefined);
  if (!found) return;
  if (!found.isDirectory()) throw new UsageError(`--out ${out} is a file, not a folder`);
  if ((await readdir(path)).length > 0) throw new UsageError(`--out ${out} is not empty: give a new or empty folder`);
}

/** Writes a JSON array one element a line, so no single string holds a whole large log. */
async function writeArray(path: string, items: readonly unknown[], guard: (line: string) => void): Promise<void> {
  const stream = createWriteStream(path, { encoding: 'utf8' });
  const closed = once(stream, 'close');
  try {
    const write = async (text: string): Promise<void> => {
      if (!stream.write(text)) await once(stream, 'drain');
    };
    await write('[');
    for (let i = 0; i < items.length; i++) {
      const line = JSON.stringify(items[i]);
      guard(line);
      await write(`${i === 0 ? '' : ','}\n${line}`);
    }
    await write('\n]\n');
  } finally {
    stream.end();
    await closed;
  }
}

type RecordingFiles = Partial<Record<keyof RecordingManifest['files'], readonly unknown[]>>;

// Written whole or not at all: into a hidden folder beside --out, the manifest last, then renamed;
// every line is checked for the run's secrets on its way out.
async function writeRecording(out: string, files: RecordingFiles, manifest: RecordingManifest, secrets: Secrets): Promise<void> {
  const target = resolve(out);
  await assertWritableOut(target);
  await mkdir(dirname(target), { recursive: true });
  const temporary = await mkdtemp(join(dirname(target), `.${basename(target)}.partial-`));
  const guard = (line: string): void => {
    // The records were masked already; this is the last line of defence.
    if (secrets.mask(line) !== line) throw new Error('a secret of the run was about to be written; nothing was written');
  };
  try {
    for (const [name, items] of Object.entries(files)) await writeArray(join(temporary, RECORDING_FILES[name as keyof RecordingFiles]), items, guard);
    const text = `${JSON.stringify(manifest, null, 2)}\n`;
    guard(text);
    await writeFile(join(temporary, RECORDING_FILES.manifest), text);
    if (await stat(target).catch(() => undefined)) await rmdir(target);
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { recursive: true, force: true });
    throw error;
  }
}

export interface RecordOptions extends ReadWindow {
  readonly baseUrl: string;
  readonly admin: Credentials;
  readonly out: string;
  readonly keepInvalid?: boolean;
  readonly anonymize?: boolean;
  readonly timeoutMs?: number;
  readonly maxWaitMs: number;
  readonly maxDurationMs?: number;
  /** The run's secrets, the administrator's credentials and those of the base URL among them. */
  readonly secrets: Secrets;
  readonly kit: { readonly name: string; readonly version: string };
  /** Progress lines (stderr). */
  readonly progress?: (line: string) => void;
}

export type RecordResult = Awaited<ReturnType<typeof recordServer>>;

const MAX_NOTES = 1000;

/** Only scheme, host, port and path: never userinfo or a query. */
function sourceOf(baseUrl: string): string {
  const url = new URL(baseUrl);
  return `${url.protocol}//${url.host}${url.pathname.replace(/\/$/, '')}`;
}

export async function recordServer(options: RecordOptions) {
  const print = options.progress ?? (() => undefined);
  if (options.since !== undefined && options.until !== undefined && options.since > options.until) throw new UsageError('--since is after --until');
  await assertWritableOut(options.out);
  const spec = await loadSpec();
  const validator = createSpecValidator(spec);
  const { secrets } = options;
  const deadline = startDeadline(options.maxDurationMs);
  const wait = { maxWaitMs: options.maxWaitMs, sleep: (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)) };
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

  const checked = checkRecords(events, 'event-log', (record) => eventRecordProblem(validator, record), options.keepInvalid === true);
  const checkedBlocks = checkRecords(blocks.records, 'limit-block-log', (record) => schemaProblem(validator, 'BlockedRequest', record));
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
  const files: RecordingFiles = {
    events: eventFile,
    ...(keptFile.length > 0 ? { keptInvalid: keptFile } : {}),
    ...(blocks.status === 'recorded' ? { blocks: blockFile } : {}),
    ...(users ? { users } : {}),
  };
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
    files: Object.fromEntries(Object.keys(files).map((name) => [name, RECORDING_FILES[name as keyof RecordingFiles]])),
  };
  await writeRecording(options.out, files, manifest, secrets);
  return {
    out: options.out,
    manifest,
    /** The recorded user's login and the placeholder password the recording gives it. */
    login: users ? { login: String(users[0]?.login), password } : undefined,
    /** Why there is no users file, when there is none. */
    userProblem: users ? undefined : `the current user is not a valid User (${describeRecordProblem(problem!)})`,
    /** Strings in which a secret was masked. */
    masked,
  };
}
