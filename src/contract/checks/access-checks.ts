// Who may call what: refusals of missing, wrong or undeclared credentials and of callers without
// the permission, acceptance of valid credentials and of permission holders.
import type { Operation } from '../../spec/index.js';
import { citeOperation, citeResponse, gapFill, failure, inconclusive, defineCheck, isInconclusive, type Json } from './check.js';
import type { Check, Citation, Exchange, Judgement, AuthMode } from '../types.js';
import { schemeOf } from '../client/credentials.js';

/** What a step tells an access check: the request names an id that does not exist (a 404 then got past authentication and permissions). */
export interface Target {
  readonly unknownTarget?: boolean;
}

/** Neither a 5xx (not-server-error's finding) nor a block (429) says anything of access. */
function unjudged(exchange: Exchange): Judgement | undefined {
  const status = exchange.response?.status;
  if (status === undefined) return inconclusive('no answer');
  return status >= 500 || status === 429 ? inconclusive(`answered ${status}`) : undefined;
}

/**
 * A check that a request is refused with `refusal` (401, 403): accepted (2xx/3xx, or a 404 for an
 * unknown target) → judged by the rule's `acceptedCitation`; refused with another 4xx → a note on
 * the documented refusal status (a gap-fill). No rule: the operation has nothing to refuse.
 */
function defineRefusal<const Name extends string, Facts extends Target>(
  name: Name,
  title: string,
  refusal: number,
  ruleOf: (op: Operation, exchange: Exchange, facts: Facts) => (Target & { readonly acceptedCitation: Citation; readonly what: string }) | undefined,
): Check<Name, Facts> {
  return defineCheck({
    name,
    title,
    judgesUnreadBody: true,
    run(exchange, context, facts: Facts) {
      const op = context.spec.operation(exchange.operationId);
      const rule = ruleOf(op, exchange, facts);
      if (!rule) return [];
      const status = exchange.response?.status ?? 0;
      const unclear = unjudged(exchange);
      if (unclear || status === refusal) return unclear ?? [];
      const accepted = status < 400 || (status === 404 && (rule.unknownTarget ?? facts.unknownTarget) === true);
      return [
        failure(this, exchange, {
          message: accepted ? `${rule.what} was accepted with ${status}${status === 404 ? ' (the unknown id it names was looked up)' : ''}` : `${rule.what} was refused with ${status}, not ${refusal}`,
          expected: `refused with ${refusal}`,
          citation: accepted ? rule.acceptedCitation : citeResponse(op, refusal),
        }),
      ];
    },
  });
}

/** Spec 5: every call is authenticated by one of the three methods (extensions cite their gap-fill). */
export function citeAuthentication(op: Operation): Citation {
  return op.extension
    ? citeOperation(op)
    : { source: 'spec', ref: '5', text: 'Three methods exist (Basic, session cookie, API token); each call is authenticated by one of them.' };
}

/** Refused with 401 or 403 → judged by `citation`; any other answer got past authentication and permissions. */
export function judgeAcceptance(check: Pick<Check, 'name' | 'title'>, exchange: Exchange, citation: Citation, what: string): Judgement {
  const status = exchange.response?.status ?? 0;
  const unclear = unjudged(exchange);
  if (unclear || (status !== 401 && status !== 403)) return unclear ?? [];
  return [failure(check, exchange, { message: `${what} was refused with ${status}`, expected: 'accepted (not 401 or 403)', citation })];
}

/** A request without credentials is refused with 401. */
export const unauthenticatedRefused = defineRefusal('unauthenticated-refused', 'A request without credentials is refused (401)', 401, (op) =>
  op.security.length === 0 ? undefined : { acceptedCitation: citeAuthentication(op), what: 'a request without credentials' },
);

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

/** Wrong credentials of each kind (password, session cookie, token) are refused with 401; `what`: a log-in's body. */
export const wrongCredentialsRefused = defineRefusal('wrong-credentials-refused', 'Wrong credentials are refused (401)', 401, (op, exchange, facts: Target & { readonly what?: string }) => ({
  acceptedCitation: citeAuthentication(op),
  what: facts.what ?? `a request with ${WHAT[exchange.auth] ?? exchange.auth}`,
}));

/** Valid credentials of a scheme the operation does not declare, sent alone, are refused (4.1 takes Basic only). */
export const undeclaredSchemeRefused = defineRefusal('undeclared-scheme-refused', 'Credentials of a scheme the operation does not declare are refused (401)', 401, (op, exchange) => {
  const declared = [...new Set(op.security.flatMap((alternative) => Object.keys(alternative)))].join(', ');
  return {
    acceptedCitation: citeOperation(op, `The call is authenticated by ${declared} only.`),
    what: `a request with valid ${schemeOf(exchange.auth) ?? exchange.auth} credentials alone (the operation declares ${declared})`,
    unknownTarget: true,
  };
});

/**
 * Valid credentials of each method are accepted; with getCurrentUser the record is the one of
 * `expectLogin`. Refusing the `auth-token` alias is a note (an extension), and so is a token
 * refused with TOKEN_AUTH_DISABLED: the spec lets token authentication be switched off (5, rule 2).
 */
export const authMethodAccepted = defineCheck({
  name: 'auth-method-accepted',
  title: 'Valid credentials of each method are accepted, as the user they name',
  run(exchange, context, facts: Target & { readonly expectLogin?: string; readonly what?: string }) {
    const op = context.spec.operation(exchange.operationId);
    const schemeName = schemeOf(exchange.auth) ?? '';
    const scheme = context.spec.document.components?.securitySchemes?.[schemeName] as Json | undefined;
    const code = (exchange.response?.json as Json | undefined)?.code;
    const gap = scheme?.['x-extension'] === true || (exchange.auth === 'token' && code === 'TOKEN_AUTH_DISABLED');
    const citation = gap ? gapFill(`components/securitySchemes/${schemeName}`, String(scheme?.['x-gap-fill'] ?? '')) : citeAuthentication(op);
    const judged = judgeAcceptance(this, exchange, citation, facts.what ?? `a request with valid ${exchange.auth} credentials`);
    if (isInconclusive(judged) || judged.length > 0) return judged;
    const login = facts.expectLogin;
    const actual = (exchange.response?.json as Json | undefined)?.login;
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

/** A caller who holds the operation's permissions (x-permissions), not all permissions, is accepted. */
export const permissionAccepted = defineCheck({
  name: 'permission-accepted',
  title: 'A caller holding the permission is accepted',
  run(exchange, context, facts: Target & { readonly login: string }) {
    const op = context.spec.operation(exchange.operationId);
    const needed = op.permissions.join(', ');
    return judgeAcceptance(this, exchange, citeOperation(op, `Permission: ${needed}.`), `"${facts.login}", who holds ${needed}`);
  },
});

/** A caller without the operation's permission (x-permissions) is refused with 403. */
export const permissionRefused = defineRefusal('permission-refused', 'A caller without the permission is refused (403)', 403, (op, _exchange, facts: Target & { readonly login: string }) => {
  const needed = op.permissions.join(', ');
  return op.permissions.length === 0 ? undefined : { acceptedCitation: citeOperation(op, `Permission: ${needed}.`), what: `"${facts.login}", who lacks ${needed},` };
});
