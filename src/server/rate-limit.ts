import type { FastifyRequest } from 'fastify';
import type { ErrorFactory } from '../errors.js';
import type { ErrorMessage } from './error-messages.js';
import { parseBasic } from './auth/basic.js';
import type { RateLimitedRequest } from '../store/rate-limiter.js';
import type { FakeState } from '../store/state.js';
import type { RequestCheck } from './request-hooks.js';
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

export function createRateLimitChecks(state: FakeState, errors: ErrorFactory, messages: ErrorMessage): RateLimitChecks {
  const admit = (request: RateLimitedRequest) => {
    const decision = state.data.admit(request);
    if (!decision.allowed) {
      const seconds = decision.retryAfterSeconds;
      throw errors('RATE_LIMITED', messages('RATE_LIMITED', 'blocked', { seconds: String(seconds) }), {
        headers: { 'retry-after': String(seconds) },
      });
    }
  };
  return {
    beforeAuth: (request) => {
      const authorization = request.headers.authorization;
      const login = authorization ? parseBasic(authorization)?.login : undefined;
      admit({ ip: request.ip, uri: pathOf(request), login: login || undefined });
    },
    afterAuth: (request) => {
      const user = request.caller?.user;
      if (user) admit({ ip: '', uri: '', user: user.id });
    },
    bodyLogin: (request) => {
      if (request.caller) return;
      const login = loginInBody(request.body);
      if (login) admit({ ip: '', uri: '', login });
    },
  };
}
