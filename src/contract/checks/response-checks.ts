// The checks every answer gets: it came, it is no 5xx, its status is documented, it is JSON; on
// the operations they name, the session cookie's attributes and a created token being new.
import { type ResponseProblem, specDescribesBody, type Operation, type Response } from '../../spec/index.js';
import type { CheckContext, Exchange, Citation, Failure } from '../types.js';
import { citeOperation, citeResponse, citeStatuses, failure, inconclusive, defineCheck, noAnswer } from './check.js';
import { Cookie } from 'tough-cookie';
import { textHead } from '../../shared/text-head.js';
import { setCookieLines, answerSecrets } from '../client/credentials.js';
import { describeSecret } from '../../shared/redaction/secret-names.js';

/** A problem as kept beside its exchange: the first schema errors, and how many there were. */
export type KeptProblem = ResponseProblem & { readonly errorCount?: number };

const cache = new WeakMap<Exchange, KeptProblem[]>();

/** Schema errors kept of an answer at most (Ajv reports every error of every record): the check says how many more there were. */
export const MAX_SCHEMA_ERRORS = 200;

/** The items of a list answer the schema checks validate: the rest of a hostile answer's millions is counted, not judged. */
export const checkedItems = (context: CheckContext): number => context.maxItems ?? 500;

export function responseProblems(exchange: Exchange, context: CheckContext): KeptProblem[] {
  const response = exchange.response;
  if (!response) return [];
  let problems = cache.get(exchange);
  if (!problems) {
    // The validator parses the body itself: a list too long is handed over as its first items.
    const max = checkedItems(context);
    const json = response.json;
    const checked = context.validator.checkResponse(exchange.operationId, Array.isArray(json) && json.length > max ? { ...response, body: JSON.stringify(json.slice(0, max)) } : response);
    // Kept as long as the exchange: thousands of schema errors are cut, and their message.
    problems = checked.map((p) => ({ ...p, message: textHead(p.message, 4096), ...(p.schemaErrors ? { schemaErrors: p.schemaErrors.slice(0, MAX_SCHEMA_ERRORS), errorCount: p.schemaErrors.length } : {}) }));
    cache.set(exchange, problems);
  }
  return problems;
}

/**
 * The server answered at all: a connection reset, refused or closed before any answer is a
 * violation; no answer within the runner's own deadline is inconclusive (the spec sets no time).
 */
export const transportError = defineCheck({
  name: 'transport-error',
  title: 'The server answers',
  judgesUnreadBody: true,
  run(exchange, context) {
    if (exchange.response || !exchange.error) return [];
    if (exchange.timedOutAfterMs !== undefined) return inconclusive(noAnswer(exchange));
    return [
      failure(this, exchange, {
        message: noAnswer(exchange),
        expected: 'an HTTP answer',
        citation: citeOperation(context.spec.operation(exchange.operationId)),
        verdict: 'violation',
      }),
    ];
  },
});

/** A 5xx is never an answer: bad input gets a 4xx, good input gets served. */
export const notServerError = defineCheck({
  name: 'not-server-error',
  title: 'The server does not fail (no 5xx)',
  judgesUnreadBody: true,
  run(exchange, context) {
    const status = exchange.response?.status;
    if (status === undefined || status < 500) return [];
    const op = context.spec.operation(exchange.operationId);
    return [
      failure(this, exchange, {
        message: `answered ${status}, a server error`,
        expected: 'a documented answer (2xx or a 4xx refusal), never a 5xx',
        citation: citeOperation(op),
        verdict: 'violation',
      }),
    ];
  },
});

/** The status is one the document lists: another of a class whose documented statuses are all gap-fills is a note (5xx: not-server-error). */
export const statusDocumented = defineCheck({
  name: 'status-documented',
  title: 'The status is documented',
  judgesUnreadBody: true,
  run(exchange, context) {
    const status = exchange.response?.status;
    if (status === undefined || status >= 500) return [];
    if (!responseProblems(exchange, context).some((p) => p.kind === 'undocumented-status')) return [];
    const op = context.spec.operation(exchange.operationId);
    const citation = citeStatuses(op, String(status)[0] ?? '');
    const documented = Object.keys(op.responses).join(', ');
    return [
      failure(this, exchange, {
        message: `answered ${status}, which the document does not list for ${op.operationId}`,
        expected: `one of ${documented}`,
        citation,
      }),
    ];
  },
});

const JSON_OVER_HTTP = 'The service exposes a REST interface as JSON over HTTP.';

/**
 * A body labelled JSON that does not parse breaks spec 1 wherever it comes; another content type
 * where the spec's tables describe the body (4.2, 4.4, 4.6), else it differs from the document's choice.
 */
function citationFor(problem: ResponseProblem, op: Operation, documented: Response | undefined, status: number): Citation {
  if (problem.kind === 'not-json') return { source: 'spec', ref: '1', text: `${JSON_OVER_HTTP} A body labelled JSON parses as JSON.` };
  if (specDescribesBody(documented)) {
    return { source: 'spec', ref: '1', text: `${JSON_OVER_HTTP} The spec's tables describe the body of ${op.specSection ?? op.operationId}.` };
  }
  return citeResponse(op, status);
}

/** A documented JSON answer comes as application/json and parses (spec 1: JSON over HTTP). */
export const contentType = defineCheck({
  name: 'content-type',
  title: 'The body is JSON with a JSON content type',
  run(exchange, context) {
    const status = exchange.response?.status ?? 0;
    const op = context.spec.operation(exchange.operationId);
    const documented = context.validator.responseFor(op.operationId, status);
    return responseProblems(exchange, context)
      .filter((p) => p.kind === 'content-type' || p.kind === 'not-json')
      .map((p) =>
        failure(this, exchange, {
          message: p.message,
          expected: 'Content-Type application/json and a JSON body',
          citation: citationFor(p, op, documented, status),
        }),
      );
  },
});

/** The attributes a documented cookie line may state, each as a parsed cookie shows it. */
const ATTRIBUTES: Readonly<Record<string, (cookie: Cookie) => unknown>> = { path: (c) => c.path, httponly: (c) => c.httpOnly, secure: (c) => c.secure, samesite: (c) => c.sameSite };

/**
 * The cookies the document states on an answer: each `name=<value>; Attribute…` in backticks in
 * its Set-Cookie header's description, parsed as a cookie; an attribute it states holds of a
 * cookie sent that shows it the same.
 */
export function statedCookies(op: Operation, status: number): Map<string, { text: string; holds(cookie: Cookie): boolean }[]> {
  const headers = (op.responses[String(status)] as { headers?: Record<string, { description?: string }> } | undefined)?.headers ?? {};
  const description = Object.entries(headers).find(([name]) => name.toLowerCase() === 'set-cookie')?.[1].description ?? '';
  const read = (attribute: string) => ATTRIBUTES[attribute.split('=')[0]?.trim().toLowerCase() ?? ''];
  const stated = new Map<string, { text: string; holds(cookie: Cookie): boolean }[]>();
  for (const [, line = ''] of description.matchAll(/`([^`]+)`/g)) {
    const documented = Cookie.parse(line);
    const attributes = line.split(';').slice(1).map((a) => a.trim()).filter((a) => read(a));
    if (documented) stated.set(documented.key, attributes.map((text) => ({ text, holds: (cookie) => read(text)?.(cookie) === read(text)?.(documented) })));
  }
  return stated;
}

/** The session answer sets its cookies with the attributes the document states (Path, HttpOnly, SameSite…). */
export const sessionCookieAttributes = defineCheck({
  name: 'session-cookie-attributes',
  title: 'The session cookies carry the attributes the document states',
  operations: ['createSession'],
  run(exchange, context) {
    const status = exchange.response?.status;
    if (status === undefined || status < 200 || status >= 300) return [];
    const op = context.spec.operation(exchange.operationId);
    const sent = new Map(setCookieLines(exchange).flatMap((line) => {
      const cookie = Cookie.parse(line);
      return cookie ? [[cookie.key, cookie] as const] : [];
    }));
    const failures: Failure[] = [];
    for (const [name, attributes] of statedCookies(op, status)) {
      const expected = `Set-Cookie: ${[`${name}=…`, ...attributes.map((a) => a.text)].join('; ')}`;
      const cookie = sent.get(name);
      const missing = cookie ? attributes.filter((a) => !a.holds(cookie)).map((a) => a.text) : [];
      if (cookie && missing.length === 0) continue;
      failures.push(
        failure(this, exchange, {
          message: cookie ? `the cookie "${name}" lacks ${missing.join(', ')}` : `the answer sets no cookie "${name}"`,
          expected,
          citation: citeResponse(op, status),
        }),
      );
    }
    return failures;
  },
});

/**
 * A token createAuthToken answers for user X is a new one (spec 4.1), not one the run already
 * knows as another user's (who could then act as X and the reverse). Learning never moves a token
 * known as one user's to the user a path names (client/credentials.ts).
 */
export const tokenIssuedNew = defineCheck({
  name: 'token-issued-new',
  title: 'A created API token is new, not another user\'s',
  operations: ['createAuthToken'],
  run(exchange, context) {
    const response = exchange.response;
    if (!response || response.status < 200 || response.status >= 300) return [];
    const op = context.spec.operation(exchange.operationId);
    // The token as the runner learns it: the value the document marks, in JSON or as bare text.
    const tokens = answerSecrets(op, response);
    const subject = context.credentials.subjectOf(exchange);
    if (subject === undefined) return [];
    return tokens.flatMap((token) => {
      const owner = context.credentials.tokenOwner(token);
      if (owner === undefined || owner === subject) return [];
      return [
        failure(this, exchange, {
          message: `the token created for user ${subject} ${describeSecret(token)} is the API token of user ${owner}, which the run already knew: not a new token, and each of the two users can act as the other`,
          expected: `a new token for user ${subject}, not one another user holds`,
          citation: citeOperation(op, 'Creates a new authentication token that is usable in later requests.'),
        }),
      ];
    });
  },
});
