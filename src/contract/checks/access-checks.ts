// Who may call what: refusals of missing, wrong or undeclared credentials and of callers without
// the permission, acceptance of valid credentials and of permission holders.
import type { Operation } from '../../spec/index.js';
import { citeOperation, citeResponse, gapFill, failure, inconclusive, defineCheck, isInconclusive } from './check.js';
import type { Check, Citation, Exchange, Judgement, AuthMode } from '../types.js';
import { schemeOf } from '../client/credentials.js';

export interface RefusalRule {
  /** The status the document gives the refusal (401, 403…). */
  readonly status: number;
  /** Why accepting is wrong: a spec section, or a gap-fill for extensions. */
  readonly acceptedCitation: Citation;
  readonly what: string;
  /** The request names an id that does not exist: a 404 shows it got past authentication and permissions. */
  readonly unknownTarget?: boolean;
}

/** Refused for who sent it (401, 403): the status, or undefined when it was let in. */
function refusedStatus(status: number, rule: Pick<RefusalRule, 'unknownTarget'>): number | undefined {
  if (status === 404 && rule.unknownTarget) return undefined;
  return status >= 400 ? status : undefined;
}

/**
 * Accepted (2xx/3xx) → judged by `acceptedCitation`; refused with another 4xx → a note on the
 * documented refusal status (a gap-fill); a 5xx (not-server-error's finding) or a block (429)
 * says nothing of the refusal: inconclusive.
 */
export function judgeRefusal(check: Pick<Check, 'name' | 'title'>, exchange: Exchange, op: Operation, rule: RefusalRule): Judgement {
  const status = exchange.response?.status;
  if (status === undefined) return inconclusive('no answer');
  if (status >= 500 || status === 429) return inconclusive(`answered ${status}`);
  if (status === rule.status) return [];
  if (refusedStatus(status, rule) === undefined) {
    return [
      failure(check, exchange, {
        message: `${rule.what} was accepted with ${status}${status === 404 ? ' (the unknown id it names was looked up)' : ''}`,
        expected: `refused with ${rule.status}`,
        citation: rule.acceptedCitation,
      }),
    ];
  }
  return [
    failure(check, exchange, {
      message: `${rule.what} was refused with ${status}, not ${rule.status}`,
      expected: `refused with ${rule.status}`,
      citation: citeResponse(op, rule.status),
    }),
  ];
}

/** Spec 5: every call is authenticated by one of the three methods (extensions cite their gap-fill). */
export function citeAuthentication(op: Operation): Citation {
  return op.extension
    ? citeOperation(op)
    : { source: 'spec', ref: '5', text: 'Three methods exist (Basic, session cookie, API token); each call is authenticated by one of them.' };
}

export interface AcceptanceRule {
  /** Why refusing is wrong. */
  readonly citation: Citation;
  readonly what: string;
  readonly unknownTarget?: boolean;
}

/** Refused with 401 or 403 → judged by `citation`; any other answer got past authentication and permissions. */
export function judgeAcceptance(check: Pick<Check, 'name' | 'title'>, exchange: Exchange, rule: AcceptanceRule): Judgement {
  const status = exchange.response?.status;
  if (status === undefined) return inconclusive('no answer');
  if (status >= 500 || status === 429) return inconclusive(`answered ${status}`);
  if (status !== 401 && status !== 403) return [];
  return [failure(check, exchange, { message: `${rule.what} was refused with ${status}`, expected: 'accepted (not 401 or 403)', citation: rule.citation })];
}

/** A request without credentials is refused with 401. */
export const unauthenticatedRefused = defineCheck({
  name: 'unauthenticated-refused',
  title: 'A request without credentials is refused (401)',
  judgesUnreadBody: true,
  run(exchange, context, facts: { readonly unknownTarget?: boolean }) {
    const op = context.spec.operation(exchange.operationId);
    if (op.security.length === 0) return [];
    return judgeRefusal(this, exchange, op, { status: 401, acceptedCitation: citeAuthentication(op), what: 'a request without credentials', unknownTarget: facts.unknownTarget });
  },
});

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

/**
 * Valid credentials of a scheme the operation does not declare, sent alone, are refused with 401:
 * 4.1 authenticates with Basic only, so a session cookie or a token must not create tokens.
 */
export const undeclaredSchemeRefused = defineCheck({
  name: 'undeclared-scheme-refused',
  title: 'Credentials of a scheme the operation does not declare are refused (401)',
  judgesUnreadBody: true,
  run(exchange, context) {
    const op = context.spec.operation(exchange.operationId);
    const declared = [...new Set(op.security.flatMap((alternative) => Object.keys(alternative)))].join(', ');
    return judgeRefusal(this, exchange, op, {
      status: 401,
      acceptedCitation: citeOperation(op, `The call is authenticated by ${declared} only.`),
      what: `a request with valid ${schemeOf(exchange.auth) ?? exchange.auth} credentials alone (the operation declares ${declared})`,
      unknownTarget: true,
    });
  },
});

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

export interface PermissionAcceptedFacts {
  readonly login: string;
  readonly unknownTarget?: boolean;
}

/** A caller who holds the operation's permissions (x-permissions), not all permissions, is accepted. */
export const permissionAccepted = defineCheck({
  name: 'permission-accepted',
  title: 'A caller holding the permission is accepted',
  run(exchange, context, facts: PermissionAcceptedFacts) {
    const op = context.spec.operation(exchange.operationId);
    const needed = op.permissions.join(', ');
    return judgeAcceptance(this, exchange, {
      citation: citeOperation(op, `Permission: ${needed}.`),
      what: `"${facts.login}", who holds ${needed}`,
      unknownTarget: facts.unknownTarget,
    });
  },
});

/** A caller without the operation's permission (x-permissions) is refused with 403. */
export const permissionRefused = defineCheck({
  name: 'permission-refused',
  title: 'A caller without the permission is refused (403)',
  judgesUnreadBody: true,
  run(exchange, context, facts: { readonly login: string; readonly unknownTarget?: boolean }) {
    const op = context.spec.operation(exchange.operationId);
    if (op.permissions.length === 0) return [];
    const needed = op.permissions.join(', ');
    return judgeRefusal(this, exchange, op, {
      status: 403,
      acceptedCitation: citeOperation(op, `Permission: ${needed}.`),
      what: `"${facts.login}", who lacks ${needed},`,
      unknownTarget: facts.unknownTarget,
    });
  },
});
