import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { errorField } from '../spec/error-field.js';
import { packageRoot, type FixtureUser, type SpecValidator } from '../spec/index.js';

/** The seeded users of the kit: development credentials of the fake, not secrets. */
export const defaultUsersFixture = join(packageRoot, 'fixtures', 'users.json');

/**
 * Reads a users file and checks it against the document: each user without its password
 * must be a valid `User`, the password a string, and ids and logins unique. Every problem
 * is reported with the file, the user and the field.
 */
export async function loadUsersFixture(
  path: string,
  validator: SpecValidator,
  /** Known to be valid: users are not checked against the schema again (see checkedByTheKitsTests). */
  alreadyChecked = false,
): Promise<FixtureUser[]> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    throw new Error(`${path}: cannot read the users file: ${(error as Error).message}`);
  }
  if (!Array.isArray(parsed)) throw new Error(`${path}: the users file must hold a JSON array of users.`);

  const problems: string[] = [];
  const seen = { id: new Set<unknown>(), login: new Set<unknown>() };
  parsed.forEach((entry: unknown, index) => {
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
      problems.push(`user #${index}: must be an object`);
      return;
    }
    const { password, ...record } = entry as Record<string, unknown>;
    const who = typeof record.login === 'string' ? `user "${record.login}"` : `user #${index}`;
    if (typeof password !== 'string') problems.push(`${who}: field "password" must be a string`);
    for (const error of alreadyChecked ? [] : validator.validateNamed('User', record)) {
      const { pointer, problem } = errorField(error);
      problems.push(`${who}: field "${pointer.slice(1) || '/'}" ${problem}`);
    }
    for (const key of ['id', 'login'] as const) {
      if (seen[key].has(record[key])) problems.push(`${who}: field "${key}" repeats another user's ${key}`);
      seen[key].add(record[key]);
    }
  });
  if (problems.length > 0) throw new Error(`${path}: invalid users file:\n  ${problems.join('\n  ')}`);
  return parsed as FixtureUser[];
}
