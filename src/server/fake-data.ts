import { anchorTime, shiftTimestamps } from '../seed/anchor.js';
import { checkedByTheKitsTests, loadFixtures } from '../seed/fixtures.js';
import { loadRecording } from '../seed/recording.js';
import { seedRecords } from '../seed/seed-records.js';
import { createObjectIdGenerator } from '../shared/object-id.js';
import type { SpecValidator } from '../spec/index.js';
import type { FixtureUser } from '../spec/types.js';
import type { RateLimiterOptions } from '../store/rate-limiter.js';
import { createState } from '../store/state.js';
import type { ResolvedFakeOptions } from './options.js';

/**
 * The fake's data as it starts, the seed composed above the store: the fixture files (checked by
 * the document's validators, unless the kit's own tests already did), the recording, the generated
 * records, and the store made from them. Fixtures reloaded later get the same time shift.
 */
export async function createFakeData(resolved: ResolvedFakeOptions, validator: SpecValidator, rateLimit: RateLimiterOptions['rules']) {
  const { spec, clock } = resolved;
  const checked = (file: string) => checkedByTheKitsTests(file, spec.schemasChecked);
  const recordIds = createObjectIdGenerator();
  const fixtures = await loadFixtures({ users: resolved.users, events: resolved.eventFixtures }, validator, { alreadyChecked: checked, completion: { now: () => clock.now(), nextId: recordIds } });
  const { users } = fixtures;
  const recording = resolved.recording === undefined ? undefined : await loadRecording(resolved.recording, validator);
  const { shift, ...seeded } = seedRecords({
    seed: resolved.seed,
    count: resolved.records,
    users,
    fixtures: fixtures.events,
    ...(recording ? { recording } : {}),
    ...(resolved.anchor === undefined ? {} : { anchor: anchorTime(resolved.anchor, () => clock.now()) }),
  });
  const state = createState({ clock, users, sessions: resolved.sessions, data: { ...seeded, rateLimit } });
  let fixtureIds = new Set(fixtures.events.map((r) => r._id));
  let seededUsers = users;
  const reloadFixtures = async (): Promise<void> => {
    const next = await loadFixtures({ users: resolved.users, events: resolved.eventFixtures }, validator, { alreadyChecked: () => false, completion: { now: () => clock.now(), nextId: recordIds } });
    state.reloadFixtures(next.users, { removed: fixtureIds, added: shiftTimestamps(next.events, shift) });
    fixtureIds = new Set(next.events.map((r) => r._id));
    seededUsers = next.users;
  };
  return {
    state,
    /** The users of the users file at start-up (the docs page lists them). */
    users,
    /** The users of the users file, as last (re)loaded. */
    seededUsers: (): readonly FixtureUser[] => seededUsers,
    reloadFixtures,
    /** Ids of records given without one: fixture records at start-up, then records added by the control API. */
    recordIds,
    ...(recording ? { recording } : {}),
  };
}
