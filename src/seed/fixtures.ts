// Fixture files: the users file and files of event log records, read without blocking and
// checked against the document, every problem of every file reported at once.
import { constants, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { derivedObjectId } from '../shared/derived-id.js';
import { createObjectIdGenerator } from '../shared/object-id.js';
import { errorField } from '../spec/error-field.js';
import { completeEventRecord, describeRecordProblem, eventRecordProblems, type Completion } from '../spec/event-record-input.js';
import { packageRoot } from '../spec/paths.js';
import type { EventLogRecord, FixtureUser } from '../spec/types.js';
import type { SpecValidator } from '../spec/validator.js';

const KIT_FIXTURES = join(packageRoot, 'fixtures');
/** The kit's own hand-written event log records, merged into the seed by default, and its seeded users (development credentials of the fake, not secrets). */
export const defaultEventFixturesPath = join(KIT_FIXTURES, 'events.json');
export const defaultUsersFixture = join(KIT_FIXTURES, 'users.json');
/** The largest fixture file read, in bytes. */
export const FIXTURE_FILE_MAX_BYTES = 128 * 2 ** 20;
/** At most this many problems are written out (a file can hold 100,000 bad records); the count of all of them is given. */
const LISTED_PROBLEMS = 200;

/** Fixtures that cannot be used: the message names every problem (up to LISTED_PROBLEMS), each with the file, the record and the field. */
export class FixtureError extends Error {
  override readonly name = 'FixtureError';
}

/** `N <what>:` and the problems one per line, indented, the list cut after LISTED_PROBLEMS lines. */
function problemList(heading: string, lines: readonly string[]): string {
  const more = lines.length > LISTED_PROBLEMS ? [`... and ${lines.length - LISTED_PROBLEMS} more`] : [];
  return `${heading}\n  ${[...lines.slice(0, LISTED_PROBLEMS), ...more].join('\n  ')}`;
}

/** Whether a fixture file is one of the kit's own, which npm test checks against the kit's document (test/seed): the fake's start then skips it (a tenth of the start-up). */
export const checkedByTheKitsTests = (file: string, kitDocument: boolean): boolean => kitDocument && dirname(resolve(file)) === KIT_FIXTURES;

const kindOf = (stats: Stats): string =>
  stats.isDirectory() ? 'a folder' : stats.isFIFO() ? 'a FIFO' : stats.isCharacterDevice() || stats.isBlockDevice() ? 'a device' : stats.isSocket() ? 'a socket' : 'something else';

/**
 * A fixture file's text, read without blocking: a regular file (a link is followed) of at most
 * FIXTURE_FILE_MAX_BYTES. The opened file is checked, not the path, so a FIFO or a link to
 * /dev/zero is refused, never read. Throws an error saying why, without the path.
 */
export async function readFixtureFile(path: string): Promise<string> {
  // O_NONBLOCK: opening a FIFO returns at once instead of waiting for a writer.
  const file = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stats = await file.stat();
    if (!stats.isFile()) throw new Error(`it is ${kindOf(stats)}, not a regular file`);
    if (stats.size > FIXTURE_FILE_MAX_BYTES) throw new Error(`it has ${stats.size} bytes; a fixture file may have ${FIXTURE_FILE_MAX_BYTES} at most`);
    return await file.readFile('utf8');
  } finally {
    await file.close();
  }
}

const origins = new WeakMap<object, string>();

/** Where a record loaded by loadEventFixtures came from, e.g. `fixtures/events.json record 3`. */
export const fixtureOrigin = (record: object): string | undefined => origins.get(record);

/**
 * Reads JSON files of event log records, completes those without `_id` or `timestamp` as the
 * control API does, and checks each against the document's EventLogRecord (unless
 * `alreadyChecked`). Throws one FixtureError listing every problem of every file, a repeated _id too.
 */
export async function loadEventFixtures(
  paths: readonly string[],
  validator: Pick<SpecValidator, 'validateNamed' | 'problemWords'>,
  options: { readonly alreadyChecked?: (file: string) => boolean; readonly completion?: Completion } = {},
): Promise<EventLogRecord[]> {
  const { alreadyChecked = () => false, completion = { now: () => Date.now(), nextId: createObjectIdGenerator() } } = options;
  const records: EventLogRecord[] = [];
  const problems: string[] = [];
  const seen = new Map<string, string>();
  for (const file of paths) {
    const data: unknown = await readFixtureFile(file).then(JSON.parse).catch((error: Error) => error);
    if (data instanceof Error || !Array.isArray(data)) {
      problems.push(data instanceof Error ? `Fixture file ${file} cannot be read as JSON: ${data.message}` : `Fixture file ${file} must hold a JSON array of event log records.`);
      continue;
    }
    const checked = alreadyChecked(file);
    data.forEach((given: unknown, index) => {
      const record = completeEventRecord(given, completion) as EventLogRecord;
      const givenId = (given as { _id?: unknown } | null)?._id;
      const where = `Fixture file ${file}, record ${index} (${typeof givenId === 'string' ? `_id "${givenId}"` : 'no _id'})`;
      const found = checked ? [] : eventRecordProblems(validator, record);
      for (const problem of found) problems.push(`${where}: ${describeRecordProblem(problem)}`);
      if (found.length > 0) return;
      const earlier = seen.get(record._id);
      if (earlier) return void problems.push(`${where}: _id "${record._id}" is already used by ${earlier}.`);
      seen.set(record._id, `${file} record ${index}`);
      origins.set(record, `${file} record ${index}`);
      records.push(record);
    });
  }
  if (problems.length > 0) throw new FixtureError(problems.length === 1 ? (problems[0] as string) : problemList(`${problems.length} problems in the fixture files:`, problems));
  return records;
}

/**
 * Reads a users file and checks it against the document: each user without its password a valid
 * `User`, the password a string, ids and logins unique; every problem is reported, with the user's
 * index (and login) and the field. A user without `id` gets one derived from its login, the same at
 * every start, so its sessions, snapshots and tokens keep working across restarts and reloads.
 */
export async function loadUsersFixture(path: string, validator: SpecValidator, alreadyChecked = false): Promise<FixtureUser[]> {
  const parsed: unknown = await readFixtureFile(path)
    .then(JSON.parse)
    .catch((error: Error) => {
      throw new Error(`${path}: cannot read the users file: ${error.message}`);
    });
  if (!Array.isArray(parsed)) throw new Error(`${path}: the users file must hold a JSON array of users.`);
  const problems: string[] = [];
  const seen = { id: new Set<unknown>(), login: new Set<unknown>() };
  const users = parsed.map((entry: unknown, index) => {
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) return void problems.push(`user ${index}: must be an object`);
    const { password, ...given } = entry as Record<string, unknown>;
    const record = given.id === undefined && typeof given.login === 'string' ? { ...given, id: derivedObjectId('user', given.login) } : given;
    const who = typeof record.login === 'string' ? `user ${index} ("${record.login}")` : `user ${index}`;
    if (typeof password !== 'string') problems.push(`${who}: field "password" must be a string`);
    for (const error of alreadyChecked ? [] : validator.validateNamed('User', record)) {
      const { pointer, problem } = errorField(error, validator.problemWords);
      problems.push(`${who}: field "${pointer.slice(1) || '/'}" ${problem}`);
    }
    for (const key of ['id', 'login'] as const) {
      if (seen[key].has(record[key])) problems.push(`${who}: field "${key}" repeats another user's ${key}`);
      seen[key].add(record[key]);
    }
    return { ...record, password };
  });
  if (problems.length > 0) throw new Error(problemList(`${path}: invalid users file (${problems.length} ${problems.length === 1 ? 'problem' : 'problems'}):`, problems));
  return users as FixtureUser[];
}

/** Reads and checks the users file and the event log fixtures together, so one run reports the problems of all of them. */
export async function loadFixtures(
  files: { readonly users: string; readonly events: readonly string[] },
  validator: SpecValidator,
  options: { alreadyChecked: (file: string) => boolean; completion: Completion },
): Promise<{ users: FixtureUser[]; events: EventLogRecord[] }> {
  const [users, events] = await Promise.allSettled([loadUsersFixture(files.users, validator, options.alreadyChecked(files.users)), loadEventFixtures(files.events, validator, options)]);
  if (users.status === 'fulfilled' && events.status === 'fulfilled') return { users: users.value, events: events.value };
  const failures = [users, events].flatMap((r) => (r.status === 'rejected' ? [r.reason as Error] : []));
  if (failures.length === 1) throw failures[0];
  throw new Error(failures.map((e) => e.message).join('\n'));
}
