import { randomUUID } from 'node:crypto';

/** API tokens: one per user at a time; a new one replaces the old, which stops working at once. */
export interface TokenStore {
  /** Creates a new token for the user, replacing (and invalidating) any previous one. */
  issue(userId: string): string;
  /** Sets a known token (seeding from fixtures), replacing any previous one. */
  assign(userId: string, token: string): void;
  /** Revokes the user's token; false when there was none. */
  revoke(userId: string): boolean;
  tokenOf(userId: string): string | undefined;
  /** The id of the user whose current token this is. */
  userFor(token: string): string | undefined;
  clear(): void;
}

export function createTokenStore(generate: () => string = randomUUID): TokenStore {
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
    issue(userId) {
      const token = generate();
      assign(userId, token);
      return token;
    },
    assign,
    revoke,
    tokenOf: (userId) => byUser.get(userId),
    userFor: (token) => byToken.get(token),
    clear() {
      byUser.clear();
      byToken.clear();
    },
  };
}
