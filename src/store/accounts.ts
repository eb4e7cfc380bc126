import { randomUUID } from 'node:crypto';
import type { Clock } from '../shared/clock.js';
import type { FixtureUser, User } from '../spec/types.js';

// Who may call: the seeded users, their API tokens and their sessions.

/** A user held by the store: its record as the API shows it, without password or `authenticationToken` (that lives in the token store). */
const storedUser = (record: Readonly<Omit<User, 'authenticationToken'>>) => ({ id: record.id, login: record.login, permissions: [...record.permissions] as readonly string[], record });
export type StoredUser = ReturnType<typeof storedUser>;

export type UserStore = ReturnType<typeof createUserStore>;

export function createUserStore(users: readonly FixtureUser[]) {
  let stored: StoredUser[] = [];
  let byId = new Map<string, StoredUser>();
  let byLogin = new Map<string, StoredUser>();
  // Apart from the records, so that no listing of users shows a password.
  let passwords = new Map<StoredUser, string>();
  const replace = (next: readonly FixtureUser[]) => {
    passwords = new Map();
    stored = next.map(({ password, authenticationToken: _token, ...record }) => {
      const user = storedUser(record);
      passwords.set(user, password);
      return user;
    });
    byId = new Map(stored.map((u) => [u.id, u]));
    byLogin = new Map(stored.map((u) => [u.login, u]));
  };
  replace(users);
  return {
    /** Puts these users in place of all (their file changed). */
    replace,
    byId: (id: string): StoredUser | undefined => byId.get(id),
    byLogin: (login: string): StoredUser | undefined => byLogin.get(login),
    /** The user whose login and password these are, or undefined. */
    verify(login: string, password: string): StoredUser | undefined {
      const user = byLogin.get(login);
      return user !== undefined && passwords.get(user) === password ? user : undefined;
    },
    list: (): readonly StoredUser[] => stored,
  };
}

/** API tokens: one per user at a time; a new one replaces the old, which stops working at once. */
export type TokenStore = ReturnType<typeof createTokenStore>;

export function createTokenStore(generate: () => string = randomUUID) {
  const byUser = new Map<string, string>();
  const byToken = new Map<string, string>();
  const revoke = (userId: string): boolean => {
    const old = byUser.get(userId);
    if (old === undefined) return false;
    byUser.delete(userId);
    byToken.delete(old);
    return true;
  };
  const assign = (userId: string, token: string): void => {
    revoke(userId);
    const holder = byToken.get(token);
    if (holder !== undefined) byUser.delete(holder);
    byUser.set(userId, token);
    byToken.set(token, userId);
  };
  return {
    /** Creates a new token for the user, replacing (and invalidating) any previous one. */
    issue(userId: string): string {
      const token = generate();
      assign(userId, token);
      return token;
    },
    /** Sets a known token (seeding from fixtures), replacing any previous one. */
    assign,
    /** Revokes the user's token; false when there was none. */
    revoke,
    tokenOf: (userId: string): string | undefined => byUser.get(userId),
    /** The id of the user whose current token this is. */
    userFor: (token: string): string | undefined => byToken.get(token),
    clear(): void {
      byUser.clear();
      byToken.clear();
    },
  };
}

/**
 * A session made `now` (clock milliseconds), last used then; `csrf` is the value of the `csrf`
 * cookie, expected back in `x-csrf-token` where CSRF is required.
 */
const newSession = (id: string, userId: string, csrf: string, now: number) => ({ id, userId, csrf, createdAt: now, lastSeen: now });
export type Session = ReturnType<typeof newSession>;

export interface SessionStoreOptions {
  readonly clock: Clock;
  /** Most sessions held; the least recently used is evicted to make room. */
  readonly max: number;
  /** Most sessions of one user; that user's least recently used is evicted to make room. */
  readonly maxPerUser: number;
  /** A session unused for this long is gone. */
  readonly idleSeconds: number;
  readonly generateId?: () => string;
}

export type SessionStore = ReturnType<typeof createSessionStore>;

/**
 * Sessions in a Map kept in order of last use, so the least recently used and the longest idle sit
 * at the front: eviction and expiry are O(1) and memory stays bounded. Each user's sessions are in
 * that order too, so a user over `maxPerUser` loses its own oldest session, never another user's.
 */
export function createSessionStore(options: SessionStoreOptions) {
  const { clock, max, maxPerUser } = options;
  const idleMs = options.idleSeconds * 1000;
  const generateId = options.generateId ?? randomUUID;
  if (!(max >= 1)) throw new Error('sessions.max must be at least 1');
  if (!(maxPerUser >= 1)) throw new Error('sessions.maxPerUser must be at least 1');
  const sessions = new Map<string, Session>();
  /** Per user: the ids of its sessions, least recently used first. */
  const byUser = new Map<string, Set<string>>();
  const expired = (session: Session, now: number) => now - session.lastSeen >= idleMs;

  const remove = (session: Session) => {
    sessions.delete(session.id);
    const ids = byUser.get(session.userId);
    ids?.delete(session.id);
    if (ids?.size === 0) byUser.delete(session.userId);
  };
  const add = (session: Session) => {
    sessions.set(session.id, session);
    let ids = byUser.get(session.userId);
    if (!ids) byUser.set(session.userId, (ids = new Set()));
    ids.add(session.id);
  };
  const dropExpired = (now: number) => {
    for (const session of sessions.values()) {
      if (!expired(session, now)) break;
      remove(session);
    }
  };

  return {
    create(userId: string): Session {
      const now = clock.now();
      dropExpired(now);
      const own = byUser.get(userId);
      while (own !== undefined && own.size >= maxPerUser) remove(sessions.get(own.values().next().value as string)!);
      while (sessions.size >= max) remove(sessions.values().next().value as Session);
      const session = newSession(generateId(), userId, generateId(), now);
      add(session);
      return session;
    },
    /** Whether a session with this id is live, without marking it as used. */
    isLive(id: string): boolean {
      const session = sessions.get(id);
      return session !== undefined && !expired(session, clock.now());
    },
    /** The live session with this id, marked as used now; undefined when unknown or idle too long. */
    touch(id: string): Session | undefined {
      const session = sessions.get(id);
      if (!session) return undefined;
      const now = clock.now();
      if (expired(session, now)) {
        remove(session);
        return undefined;
      }
      session.lastSeen = now;
      // To the end of both orders: the most recently used.
      remove(session);
      add(session);
      return session;
    },
    delete(id: string): boolean {
      const session = sessions.get(id);
      if (session) remove(session);
      return session !== undefined;
    },
    /** The live sessions, least recently used first. */
    list(): readonly Session[] {
      dropExpired(clock.now());
      return [...sessions.values()];
    },
    /** When a session idle from now on would expire. */
    expiresAt: (session: Session): number => session.lastSeen + idleMs,
    get size(): number {
      dropExpired(clock.now());
      return sessions.size;
    },
    /** Ends every session, or those of one user; returns how many ended. */
    clear(userId?: string): number {
      const ended = userId === undefined ? [...sessions.values()] : [...(byUser.get(userId) ?? [])].map((id) => sessions.get(id)!);
      for (const session of ended) remove(session);
      return ended.length;
    },
  };
}
