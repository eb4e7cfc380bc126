import { join } from 'node:path';
import { derivedObjectId } from '../shared/derived-id.js';
import { errorField } from '../spec/error-field.js';
import { packageRoot, type FixtureUser, type SpecValidator } from '../spec/index.js';
import { readFixtureFile } from './fixture-file.js';
import { problemList } from './problem-list.js';

/** The seeded users of the kit: development credentials of the fake, not secrets. */
export const defaultUsersFixture = join(packageRoot, 'fixtures', 'users.json');

/**
 * The id of a user given without one: derived from its login, so it is the same at every
 * start (sessions, snapshots and tokens of that user keep working across restarts and reloads).
 */
export const userIdOf = (login: string): string => derivedObjectId('user', login);

/**
 * Reads a users file and checks it against the document: each user without its password
 * must be a valid `User` (a user without `id` gets one from its login), the password a
 * string, and ids and logins unique. Every problem is reported, each with the file, the
 * user's index (and login) and the field.
 */
export async function loadUsersFixture(
  path: string,
  validator: SpecValidator,
  /** Known to be valid: users are not checked against the schema again (see checkedByTheKitsTests). */
  alreadyChecked = false,
): Promise<FixtureUser[]> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFixtureFile(path));
  } catch (error) {
    throw new Error(`${path}: cannot read the users file: ${(error as Error).message}`);
  }
  if (!Array.isArray(parsed)) throw new Error(`${path}: the users file must hold a JSON array of users.`);

  const problems: string[] = [];
  const seen = { id: new Set<unknown>(), login: new Set<unknown>() };
  const users = parsed.map((entry: unknown, index) => {
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
      problems.push(`user ${index}: must be an object`);
      return entry;
    }
    const { password, ...given } = entry as Record<string, unknown>;
    const record = given.id === undefined && typeof given.login === 'string' ? { ...given, id: userIdOf(given.login) } : given;
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
  if (problems.length > 0) throw new Error(`${path}: invalid users file (${problems.length} ${problems.length === 1 ? 'problem' : 'problems'}):\n${problemList(problems)}`);
  return users as FixtureUser[];
}
