import type { Clock } from '../clock.js';
import { createSessionStore, type SessionStore } from './sessions.js';
import { createTokenStore, type TokenStore } from './tokens.js';
import { createUserStore, type FixtureUser, type UserStore } from './users.js';

export interface StateOptions {
  readonly clock: Clock;
  /** The seeded users (validated fixture). */
  readonly users: readonly FixtureUser[];
  readonly sessions: { readonly max: number; readonly idleSeconds: number };
}

/** Everything the fake holds in memory, and the way back to the seed. */
export interface FakeState {
  readonly users: UserStore;
  readonly tokens: TokenStore;
  readonly sessions: SessionStore;
  /** Back to the seed: no sessions, only the fixture's tokens. */
  reset(): void;
}

export function createState(options: StateOptions): FakeState {
  const users = createUserStore(options.users);
  const tokens = createTokenStore();
  const sessions = createSessionStore({ clock: options.clock, ...options.sessions });
  const reset = () => {
    sessions.clear();
    tokens.clear();
    for (const user of options.users) {
      if (user.authenticationToken !== undefined) tokens.assign(user.id, user.authenticationToken);
    }
  };
  reset();
  return { users, tokens, sessions, reset };
}
