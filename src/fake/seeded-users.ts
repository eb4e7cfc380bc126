import type { FakeApp } from '../server/build.js';

/** A seeded user: the fake's development credentials. */
export interface SeededUser {
  readonly id: string;
  readonly login: string;
  readonly password: string;
  readonly permissions: readonly string[];
}

/** The seeded users by login, with their passwords (as the users file was last loaded), without their tokens. */
export function seededUsersByLogin(app: FakeApp): () => Readonly<Record<string, SeededUser>> {
  // Made again only when the users file was reloaded (watch).
  let users: { of: readonly unknown[]; byLogin: Readonly<Record<string, SeededUser>> } | undefined;
  return () => {
    if (users?.of !== app.fake.seededUsers) {
      users = { of: app.fake.seededUsers, byLogin: Object.fromEntries(app.fake.seededUsers.map(({ authenticationToken: _t, ...u }) => [u.login, Object.freeze(u)])) };
    }
    return users.byLogin;
  };
}
