import { citeOperation, gapFill } from '../citations.js';
import { schemeOf } from '../client/auth-schemes.js';
import type { Citation, Failure } from '../types.js';
import { failure, inconclusive } from './failure.js';
import { citeAuthentication } from './refusal.js';
import { defineCheck } from './define.js';

type Annotated = Record<string, unknown>;


export interface AuthMethodFacts {
  /** The login whose record getCurrentUser must return. */
  readonly expectLogin?: string;
}

/**
 * Valid credentials of each method are accepted; with getCurrentUser the record is the caller's.
 * Refusing the `auth-token` alias is a note (an extension). A token refused with
 * TOKEN_AUTH_DISABLED is a note: the spec lets token authentication be switched off (5, rule 2).
 */
export const authMethodAccepted = defineCheck({
  name: 'auth-method-accepted',
  title: 'Valid credentials of each method are accepted',
  run(exchange, context, facts: AuthMethodFacts) {
    const response = exchange.response;
    if (!response) return inconclusive('no answer');
    if (response.status >= 500 || response.status === 429) return inconclusive(`answered ${response.status}`);
    const op = context.spec.operation(exchange.operationId);
    const schemeName = schemeOf(exchange.auth) ?? '';
    const scheme = context.spec.document.components?.securitySchemes?.[schemeName] as Annotated | undefined;
    const failures: Failure[] = [];
    if (response.status >= 300) {
      const code = (response.json as Annotated | undefined)?.code;
      let citation: Citation = citeAuthentication(op);
      if (scheme?.['x-extension'] === true || (exchange.auth === 'token' && code === 'TOKEN_AUTH_DISABLED')) {
        citation = gapFill(`components/securitySchemes/${schemeName}`, String(scheme?.['x-gap-fill'] ?? ''));
      }
      failures.push(
        failure(this, exchange, {
          message: `valid ${exchange.auth} credentials were refused with ${response.status}`,
          expected: 'accepted (2xx)',
          citation,
        }),
      );
      return failures;
    }
    const login = facts.expectLogin;
    const actual = (response.json as Annotated | undefined)?.login;
    if (op.operationId === 'getCurrentUser' && login !== undefined && actual !== login) {
      failures.push(
        failure(this, exchange, {
          message: `the current user is ${JSON.stringify(actual)}, not the caller "${login}"`,
          expected: `the record of "${login}"`,
          citation: citeOperation(op, 'Returns the User object of the authenticated caller.'),
        }),
      );
    }
    return failures;
  },
});
