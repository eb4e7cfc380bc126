// How a request carries the credentials of one way of authenticating (AuthMode) that need no
// cookie jar: a Basic header, a token in the query, or deliberately wrong ones of each scheme for
// the refusal checks. The session cookie comes from the actor's jar (api-client.ts).
import type { Random } from '../random.js';
import type { AuthMode } from '../types.js';
import type { Credentials } from './call.js';

export interface SentCredentials {
  readonly headers: Record<string, string>;
  readonly query: Record<string, string>;
  readonly cookies: string[];
}

const basic = (c: Credentials): string => `Basic ${Buffer.from(`${c.login}:${c.password}`).toString('base64')}`;

/**
 * Adds to a request's headers, query and cookies what `auth` sends: `credentials` for Basic, the
 * actor's `token` (`who` names the actor when it has none), or wrong ones drawn from `random`. A
 * logged-out session id or a revoked token is a value the call itself carries (its cookies, its query).
 */
export function addCredentials(sent: SentCredentials, auth: AuthMode, credentials: Credentials, token: string | undefined, who: string, random: Random): void {
  if (auth === 'basic') sent.headers.authorization = basic(credentials);
  if (auth === 'wrong-basic') sent.headers.authorization = basic({ login: `contract-check-${random.word(8)}`, password: random.word(12) });
  // A known login with a password that is not its own: a server that checks only the login accepts it.
  if (auth === 'wrong-password') sent.headers.authorization = basic({ login: credentials.login, password: `${credentials.password}-${random.word(6)}` });
  if (auth === 'wrong-empty-password') sent.headers.authorization = basic({ login: credentials.login, password: '' });
  if (auth === 'token' || auth === 'auth-token') {
    if (!token) throw new Error(`No API token for the ${who} user.`);
    sent.query[auth === 'token' ? 'api-token' : 'auth-token'] = token;
  }
  if (auth === 'wrong-token' || auth === 'wrong-auth-token') sent.query[auth === 'wrong-token' ? 'api-token' : 'auth-token'] = random.uuid();
  if (auth === 'wrong-session') sent.cookies.push(`sid=${random.uuid()}`);
}
