import type { Clock } from '../shared/clock.js';
import { createDataState, type DataState, type DataStateOptions } from './data-state.js';
import { createSessionStore, type SessionStore } from './sessions.js';
import { createTokenStore, type TokenStore } from './tokens.js';
import type { FixtureUser } from '../spec/types.js';
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
  /** Back to the seed: no sessions, only the fixture's tokens, seeded records, no blocks. */
  reset(): void;
}

export function createState(options: StateOptions): FakeState {
  const users = createUserStore(options.users);
  const tokens = createTokenStore();
  const sessions = createSessionStore({ clock: options.clock, ...options.sessions });
  const data = createDataState({ ...options.data, clock: options.clock });
  const reset = () => {
    data.reset();
    sessions.clear();
    tokens.clear();
    for (const user of options.users) {
      if (user.authenticationToken !== undefined) tokens.assign(user.id, user.authenticationToken);
    }
  };
  reset();
  return { users, tokens, sessions, data, reset };
}
