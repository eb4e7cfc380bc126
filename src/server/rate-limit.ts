import type { FastifyRequest } from 'fastify';
import type { ApiError, ErrorFactory } from '../errors.js';
import type { ErrorMessage } from './error-messages.js';
import { parseBasic } from './auth/verify.js';
import type { RateLimitedRequest } from '../store/rate-limiter.js';
import type { FakeState } from '../store/state.js';
import type { RequestCheck } from './routes.js';
import { routedPath } from './request-path.js';

/**
 * The checks that count a request against the limits (spec section 8), in the order they
 * run. What each key means is the control document's `RateLimitKey`: `login` is the login a
 * request presents (Basic credentials or a log-in body), right password or not; `user` the
 * id of the authenticated user, whatever the method.
 */
export interface RateLimitChecks {
  /** By IP address, URI and the Basic login, before authentication, so failed log-ins count too. */
  readonly beforeAuth: RequestCheck;
  /** By the id of the authenticated user. */
  readonly afterAuth: RequestCheck;
  /** By the login named in a log-in body (a preHandler check: it needs the parsed body), for operations without authentication. */
  readonly bodyLogin: RequestCheck;
}

// The path only (a query string may hold an API token, which must never reach the block log),
// decoded as routed, so escaping a letter of the path does not make it another URI.
const pathOf = (request: FastifyRequest) => routedPath(request.url);

function loginInBody(body: unknown): string | undefined {
  const login = (body as { login?: unknown } | null | undefined)?.login;
  return typeof login === 'string' && login.length > 0 ? login : undefined;
}

/** The most refusals kept made, one for each Retry-After in seconds: a flood is refused with a few. */
const KEPT_REFUSALS = 64;

/**
 * The 429 of a request blocked for `seconds`, made once for each number of seconds: every
 * request a blocked client sends is refused, so a refusal must cost less than an answer,
 * and its error, message and body text are the same for the same seconds (the error is
 * never changed once made). The few kept are the seconds last asked for.
 */
function createRefusals(errors: ErrorFactory, messages: ErrorMessage): (seconds: number) => ApiError {
  const made = new Map<number, ApiError>();
  return (seconds) => {
    let refusal = made.get(seconds);
    if (refusal === undefined) {
      if (made.size >= KEPT_REFUSALS) made.clear();
      const text = String(seconds);
      refusal = errors('RATE_LIMITED', messages('RATE_LIMITED', 'blocked', { seconds: text }), { headers: { 'retry-after': text } });
      made.set(seconds, refusal);
    }
    return refusal;
  };
}

export function createRateLimitChecks(state: FakeState, errors: ErrorFactory, messages: ErrorMessage): RateLimitChecks {
  const refusals = createRefusals(errors, messages);
  // The refusal is returned, not thrown (see RequestCheck): a flood of blocked requests pays no throw.
  const admit = (request: RateLimitedRequest): ApiError | undefined => {
    const decision = state.data.admit(request);
    return decision.allowed ? undefined : refusals(decision.retryAfterSeconds);
  };
  return {
    beforeAuth: (request) => {
      const authorization = request.headers.authorization;
      const login = authorization ? parseBasic(authorization)?.login : undefined;
      return admit({ ip: request.ip, uri: pathOf(request), login: login || undefined });
    },
    afterAuth: (request) => {
      const user = request.caller?.user;
      return user ? admit({ ip: '', uri: '', user: user.id }) : undefined;
    },
    bodyLogin: (request) => {
      if (request.caller) return undefined;
      const login = loginInBody(request.body);
      return login ? admit({ ip: '', uri: '', login }) : undefined;
    },
  };
}
