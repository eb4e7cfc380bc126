import type { Clock } from '../shared/clock.js';
import { createDataState, type DataState, type DataStateOptions } from './data-state.js';
import { createSessionStore, type SessionStore } from './sessions.js';
import { createTokenStore, type TokenStore } from './tokens.js';
import type { EventLogRecord, FixtureUser } from '../spec/types.js';
import { createUserStore, type UserStore } from './users.js';

export interface StateOptions {
  readonly clock: Clock;
  /** The seeded users (validated fixture). */
  readonly users: readonly FixtureUser[];
  readonly sessions: { readonly max: number; readonly maxPerUser: number; readonly idleSeconds: number };
  /** The first records of the event log and block log (see src/seed), and the rate limits. */
  readonly data?: DataStateOptions;
}

/** Everything the fake holds in memory, and the way back to the seed. */
export interface FakeState {
  readonly users: UserStore;
  readonly tokens: TokenStore;
  readonly sessions: SessionStore;
  /** The event log, the block log and the rate limiter that feeds it. */
  readonly data: DataState;
  /** Back to the seed: no sessions (unless kept), only the fixture's tokens, seeded records, no blocks. */
  reset(options?: { readonly keepSessions?: boolean }): void;
  /**
   * Puts new fixtures in place (their files changed): the users, and the fixture records of
   * the event log (`removed` the _ids of the old ones). Sessions and tokens of users still
   * there stay, those of users gone end; a new user's fixture token is given. Every other
   * record stays. All or nothing: throws, changing nothing, on a record that cannot be stored.
   */
  reloadFixtures(users: readonly FixtureUser[], records: { readonly removed: ReadonlySet<string>; readonly added: readonly EventLogRecord[] }): void;
}

export function createState(options: StateOptions): FakeState {
  const users = createUserStore(options.users);
  const tokens = createTokenStore();
  const sessions = createSessionStore({ clock: options.clock, ...options.sessions });
  const data = createDataState({ ...options.data, clock: options.clock });
  let seedUsers = options.users;
  const reset = ({ keepSessions = false } = {}) => {
    data.reset();
    if (!keepSessions) sessions.clear();
    tokens.clear();
    for (const user of seedUsers) {
      if (user.authenticationToken !== undefined) tokens.assign(user.id, user.authenticationToken);
    }
  };
  reset();
  const reloadFixtures: FakeState['reloadFixtures'] = (next, records) => {
    data.events.swapSeedRecords(records.removed, records.added);
    const before = new Set(seedUsers.map((u) => u.id));
    const stays = new Set(next.map((u) => u.id));
    for (const user of users.list()) {
      if (stays.has(user.id)) continue;
      sessions.clear(user.id);
      if (tokens.tokenOf(user.id) !== undefined) tokens.revoke(user.id);
    }
    users.replace(next);
    seedUsers = next;
    for (const user of next) {
      if (!before.has(user.id) && user.authenticationToken !== undefined && tokens.tokenOf(user.id) === undefined) tokens.assign(user.id, user.authenticationToken);
    }
  };
  return { users, tokens, sessions, data, reset, reloadFixtures };
}
