import { createHash, timingSafeEqual } from 'node:crypto';
import type { FixtureUser, User } from '../spec/types.js';

/** A user held by the store: its record (no password, no token) and a hash of the password. */
export interface StoredUser {
  readonly id: string;
  readonly login: string;
  readonly permissions: readonly string[];
  /** The user's record as the API shows it, without `authenticationToken` (that lives in the token store). */
  readonly record: Readonly<Omit<User, 'authenticationToken'>>;
  readonly passwordHash: Buffer;
}

export interface UserStore {
  byId(id: string): StoredUser | undefined;
  byLogin(login: string): StoredUser | undefined;
  /**
   * The user whose login and password these are, or undefined. A wrong password and an unknown
   * login cost the same (a hash and a constant-time compare); a pair that was right lately is
   * remembered, as a Basic client sends it on every request.
   */
  verify(login: string, password: string): StoredUser | undefined;
  list(): readonly StoredUser[];
  /** Puts these users in place of all (their file changed). */
  replace(users: readonly FixtureUser[]): void;
}

const hash = (value: string): Buffer => createHash('sha256').update(value, 'utf8').digest();
// Compared against when the login is unknown, so an unknown login costs as much as a wrong password.
const NO_USER_HASH = hash('\u0000no such user\u0000');
const MAX_VERIFIED = 1_000;

const storedOf = (users: readonly FixtureUser[]): StoredUser[] =>
  users.map(({ password, authenticationToken: _token, ...record }) => ({
    id: record.id,
    login: record.login,
    permissions: [...record.permissions],
    record,
    passwordHash: hash(password),
  }));

export function createUserStore(users: readonly FixtureUser[]): UserStore {
  let stored = storedOf(users);
  let byId = new Map(stored.map((u) => [u.id, u]));
  let byLogin = new Map(stored.map((u) => [u.login, u]));
  // Pairs verified right: login -> password -> user; bounded, emptied when full. Looked up by
  // the strings themselves (a Basic client's are the same on each request): no key text is made.
  const verified = new Map<string, Map<string, StoredUser>>();
  let verifiedPairs = 0;
  return {
    replace(next) {
      stored = storedOf(next);
      byId = new Map(stored.map((u) => [u.id, u]));
      byLogin = new Map(stored.map((u) => [u.login, u]));
      verified.clear();
      verifiedPairs = 0;
    },
    byId: (id) => byId.get(id),
    byLogin: (login) => byLogin.get(login),
    verify(login, password) {
      const known = verified.get(login)?.get(password);
      if (known) return known;
      const user = byLogin.get(login);
      const same = timingSafeEqual(hash(password), user?.passwordHash ?? NO_USER_HASH);
      if (!user || !same) return undefined;
      if (verifiedPairs >= MAX_VERIFIED) {
        verified.clear();
        verifiedPairs = 0;
      }
      let passwords = verified.get(login);
      if (passwords === undefined) verified.set(login, (passwords = new Map()));
      passwords.set(password, user);
      verifiedPairs++;
      return user;
    },
    list: () => stored,
  };
}
