import { randomUUID } from 'node:crypto';
import type { Clock } from '../shared/clock.js';

export interface Session {
  readonly id: string;
  readonly userId: string;
  /** The value of the `csrf` cookie, expected back in `x-csrf-token` where CSRF is required. */
  readonly csrf: string;
  /** When the session was created, in clock milliseconds. */
  readonly createdAt: number;
  /** When the session was last used, in clock milliseconds. */
  lastSeen: number;
}

export interface SessionStoreOptions {
  readonly clock: Clock;
  /** Most sessions held; the least recently used is evicted to make room. */
  readonly max: number;
  /** A session unused for this long is gone. */
  readonly idleSeconds: number;
  readonly generateId?: () => string;
}

export interface SessionStore {
  create(userId: string): Session;
  /** The live session with this id, marked as used now; undefined when unknown or idle too long. */
  touch(id: string): Session | undefined;
  delete(id: string): boolean;
  /** The live sessions, least recently used first. */
  list(): readonly Session[];
  /** When a session idle from now on would expire. */
  expiresAt(session: Session): number;
  readonly size: number;
  /** Ends every session, or those of one user; returns how many ended. */
  clear(userId?: string): number;
}

/**
 * Sessions in a Map kept in order of last use (a touch moves a session to the end), so both
 * the least recently used and the longest idle sessions sit at the front: eviction and
 * expiry are O(1) per session and memory stays bounded however often clients log in.
 */
export function createSessionStore(options: SessionStoreOptions): SessionStore {
  const { clock, max } = options;
  const idleMs = options.idleSeconds * 1000;
  const generateId = options.generateId ?? randomUUID;
  if (!(max >= 1)) throw new Error('sessions.max must be at least 1');
  const sessions = new Map<string, Session>();
  const expired = (session: Session, now: number) => now - session.lastSeen >= idleMs;

  const dropExpired = (now: number) => {
    for (const [id, session] of sessions) {
      if (!expired(session, now)) break;
      sessions.delete(id);
    }
  };

  return {
    create(userId) {
      const now = clock.now();
      dropExpired(now);
      while (sessions.size >= max) {
        const oldest = sessions.keys().next().value as string;
        sessions.delete(oldest);
      }
      const session: Session = { id: generateId(), userId, csrf: generateId(), createdAt: now, lastSeen: now };
      sessions.set(session.id, session);
      return session;
    },
    touch(id) {
      const session = sessions.get(id);
      if (!session) return undefined;
      const now = clock.now();
      sessions.delete(id);
      if (expired(session, now)) return undefined;
      session.lastSeen = now;
      sessions.set(id, session);
      return session;
    },
    delete: (id) => sessions.delete(id),
    list() {
      dropExpired(clock.now());
      return [...sessions.values()];
    },
    expiresAt: (session) => session.lastSeen + idleMs,
    get size() {
      dropExpired(clock.now());
      return sessions.size;
    },
    clear(userId) {
      let ended = 0;
      for (const [id, session] of sessions) {
        if (userId !== undefined && session.userId !== userId) continue;
        sessions.delete(id);
        ended++;
      }
      return ended;
    },
  };
}
