// Masks from now on the credentials an answer issued the runner: the values of the cookies it
// keeps (at most MAX_KEPT_COOKIES of an answer: each is a pattern every report text is matched
// against), the token or session id createAuthToken and createSession answer, and the values the
// document marks `x-secret` in the answer (marked-secrets.ts). Other cookies and fields are no
// credential of the runner's: were they masked, a server could have any word it sets as a cookie
// or a field cut out of every report.
import type { Operation } from '../../spec/index.js';
import type { Secrets } from '../../shared/redaction/secret-values.js';
import type { Exchange } from '../types.js';
import { bodyToken } from './body-token.js';
import { MAX_KEPT_COOKIES } from './kept-cookies.js';
import { markedSecrets } from './marked-secrets.js';

/** The answer's Set-Cookie lines. */
export const setCookieLines = (exchange: Exchange): string[] => {
  const set = exchange.response?.headers['set-cookie'];
  return Array.isArray(set) ? set : set ? [set] : [];
};

/** `cookies`: the Set-Cookie lines of the answer that the runner keeps (kept-cookies.ts) or that are the API's own. */
export function rememberIssued(secrets: Secrets, operation: Operation, exchange: Exchange, cookies: readonly string[]): void {
  const r = exchange.response;
  if (!r) return;
  for (const c of cookies.slice(0, MAX_KEPT_COOKIES)) secrets.addIssued(/^[^=]+=([^;]*)/.exec(c)?.[1]);
  if (exchange.operationId === 'createAuthToken' || exchange.operationId === 'createSession') secrets.addIssued(bodyToken(r));
  for (const value of markedSecrets(operation, r.status, r.json)) secrets.addIssued(value);
}
