import type { FastifyRequest, onRequestHookHandler, preHandlerHookHandler } from 'fastify';

/**
 * A check a request must pass before its handler (fault injection, rate limits, the guard):
 * it returns nothing, or throws an ApiError that becomes the answer. A check that refuses
 * floods (the rate limits) returns its error instead: a throw costs more than the rest of
 * such a refusal.
 */
export type RequestCheck = (request: FastifyRequest) => Error | void;

/** Runs one check outside a route's hook (the not-found handler, the front door): a refusal it returns is thrown, as one it throws. */
export function passCheck(check: RequestCheck, request: FastifyRequest): void {
  const refusal = check(request);
  if (refusal !== undefined) throw refusal;
}

/**
 * The checks of one route as a single hook that calls them in order. Every call of the API
 * goes through several; one synchronous hook costs one call instead of a promise and a
 * microtask per check (`npm run bench:profile`).
 */
export function checksHook(checks: readonly RequestCheck[]): onRequestHookHandler & preHandlerHookHandler {
  return function runChecks(request, _reply, done) {
    let refusal: Error | void = undefined;
    try {
      for (const check of checks) if ((refusal = check(request)) !== undefined) break;
    } catch (error) {
      refusal = error as Error;
    }
    done(refusal ?? undefined);
  };
}
