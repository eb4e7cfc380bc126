import type { FastifyRequest, onRequestAsyncHookHandler, preHandlerAsyncHookHandler } from 'fastify';
import type { ErrorFactory } from '../errors.js';
import type { RateLimitedRequest } from '../store/rate-limiter.js';
import type { FakeState } from '../store/state.js';

/** The hooks that count a request against the limits (spec section 8), in the order they run. */
export interface RateLimitHooks {
  /** By IP address and URI, before authentication, so failed log-ins count too. */
  readonly beforeAuth: onRequestAsyncHookHandler;
  /** By login and user id of the authenticated caller. */
  readonly afterAuth: onRequestAsyncHookHandler;
  /** By the login named in a log-in body, for operations without authentication. */
  readonly beforeHandler: preHandlerAsyncHookHandler;
}

// The path only: a query string may hold an API token, which must never reach the block log.
const pathOf = (request: FastifyRequest) => request.url.split('?', 1)[0] ?? '/';

function bodyLogin(body: unknown): string | undefined {
  const login = (body as { login?: unknown } | null | undefined)?.login;
  return typeof login === 'string' && login.length > 0 ? login : undefined;
}

export function createRateLimitHooks(state: FakeState, errors: ErrorFactory): RateLimitHooks {
  const admit = (request: RateLimitedRequest) => {
    const decision = state.data.admit(request);
    if (!decision.allowed) {
      const seconds = decision.retryAfterSeconds;
      throw errors('RATE_LIMITED', `Too many requests; blocked for ${seconds} seconds.`, {
        headers: { 'retry-after': String(seconds) },
      });
    }
  };
  return {
    beforeAuth: async (request) => admit({ ip: request.ip, uri: pathOf(request) }),
    afterAuth: async (request) => {
      const user = request.caller?.user;
      if (user) admit({ ip: '', uri: '', login: user.login, user: user.id });
    },
    beforeHandler: async (request) => {
      if (request.caller) return;
      const login = bodyLogin(request.body);
      if (login) admit({ ip: '', uri: '', login, user: state.users.byLogin(login)?.id });
    },
  };
}
