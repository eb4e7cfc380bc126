import type { AuthMode } from '../types.js';
import { citeAuthentication, judgeRefusal } from './refusal.js';
import { defineCheck } from './define.js';

const WHAT: Partial<Record<AuthMode, string>> = {
  'wrong-basic': 'Basic credentials of an unknown login',
  'wrong-password': 'Basic credentials of a known login with a wrong password',
  'wrong-empty-password': 'Basic credentials of a known login with an empty password',
  'wrong-session': 'a session cookie no log-in issued',
  'wrong-ended-session': 'the session cookie of a session that was logged out',
  'wrong-token': 'an api-token no one was issued',
  'wrong-auth-token': 'an auth-token no one was issued',
  'wrong-revoked-token': 'a revoked api-token',
  'wrong-revoked-auth-token': 'a revoked token as auth-token',
};

export interface WrongCredentialsFacts {
  /** The request names an id that does not exist (a 404 is then an accepted request). */
  readonly unknownTarget?: boolean;
  /** For a log-in: what its body carries. */
  readonly what?: string;
}

/** Wrong credentials of each kind (password, session cookie, token) are refused with 401. */
export const wrongCredentialsRefused = defineCheck({
  name: 'wrong-credentials-refused',
  title: 'Wrong credentials are refused (401)',
  judgesUnreadBody: true,
  run(exchange, context, facts: WrongCredentialsFacts) {
    const op = context.spec.operation(exchange.operationId);
    const what = facts.what ?? `a request with ${WHAT[exchange.auth] ?? exchange.auth}`;
    return judgeRefusal(this, exchange, op, { status: 401, acceptedCitation: citeAuthentication(op), what, unknownTarget: facts.unknownTarget });
  },
});
