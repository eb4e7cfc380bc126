import type { Completion } from '../spec/event-record-input.js';
import type { EventLogRecord, FixtureUser } from '../spec/types.js';
import type { SpecValidator } from '../spec/validator.js';
import { loadEventFixtures } from './event-fixtures.js';
import { loadUsersFixture } from './users-fixture.js';

export interface FixtureFiles {
  /** The users file. */
  readonly users: string;
  /** Files of event log records. */
  readonly events: readonly string[];
}

/**
 * Reads and checks the users file and the event log fixtures together, so one run reports
 * the problems of all of them: the error of one part is thrown as it is, of both as one error.
 */
export async function loadFixtures(
  files: FixtureFiles,
  validator: SpecValidator,
  options: { alreadyChecked: (file: string) => boolean; completion: Completion },
): Promise<{ users: FixtureUser[]; events: EventLogRecord[] }> {
  const [users, events] = await Promise.allSettled([
    loadUsersFixture(files.users, validator, options.alreadyChecked(files.users)),
    loadEventFixtures(files.events, validator, options),
  ]);
  if (users.status === 'fulfilled' && events.status === 'fulfilled') return { users: users.value, events: events.value };
  const failures = [users, events].flatMap((r) => (r.status === 'rejected' ? [r.reason as Error] : []));
  if (failures.length === 1) throw failures[0];
  throw new Error(failures.map((e) => e.message).join('\n'));
}
