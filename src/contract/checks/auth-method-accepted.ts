import { citeOperation, gapFill } from '../citations.js';
import { schemeOf } from '../client/auth-schemes.js';
import type { Citation } from '../types.js';
import { failure, isInconclusive } from './failure.js';
import { citeAuthentication, judgeAcceptance } from './refusal.js';
import { defineCheck } from './define.js';

type Annotated = Record<string, unknown>;

export interface AuthMethodFacts {
  /** The login whose record getCurrentUser must return. */
  readonly expectLogin?: string;
  /** The request names an id that does not exist (a 404 is then an accepted request). */
  readonly unknownTarget?: boolean;
  /** What the request carries, when not credentials of a scheme (a log-in's body). */
  readonly what?: string;
}

/**
 * Valid credentials of each method are accepted; with getCurrentUser the record is the caller's.
 * Refusing the `auth-token` alias is a note (an extension). A token refused with
 * TOKEN_AUTH_DISABLED is a note: the spec lets token authentication be switched off (5, rule 2).
 */
export const authMethodAccepted = defineCheck({
  name: 'auth-method-accepted',
  title: 'Valid credentials of each method are accepted, as the user they name',
  run(exchange, context, facts: AuthMethodFacts) {
    const op = context.spec.operation(exchange.operationId);
    const schemeName = schemeOf(exchange.auth) ?? '';
    const scheme = context.spec.document.components?.securitySchemes?.[schemeName] as Annotated | undefined;
    const code = (exchange.response?.json as Annotated | undefined)?.code;
    let citation: Citation = citeAuthentication(op);
    if (scheme?.['x-extension'] === true || (exchange.auth === 'token' && code === 'TOKEN_AUTH_DISABLED')) {
      citation = gapFill(`components/securitySchemes/${schemeName}`, String(scheme?.['x-gap-fill'] ?? ''));
    }
    const judged = judgeAcceptance(this, exchange, { citation, what: facts.what ?? `a request with valid ${exchange.auth} credentials`, unknownTarget: facts.unknownTarget });
    if (isInconclusive(judged) || judged.length > 0) return judged;
    const login = facts.expectLogin;
    const actual = (exchange.response?.json as Annotated | undefined)?.login;
    if (op.operationId !== 'getCurrentUser' || login === undefined || actual === login) return [];
    return [
      failure(this, exchange, {
        message: `the current user is ${JSON.stringify(actual)}, not "${login}", whom the ${exchange.auth} credentials name`,
        expected: `the record of "${login}"`,
        citation: citeOperation(op, 'Returns the User object of the authenticated caller.'),
      }),
    ];
  },
});
