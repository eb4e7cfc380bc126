import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** What a front-door step tells the door: go on to the next step, or the step has answered the request itself. */
export const ANSWERED = true;

/**
 * One step that every request passes as it comes in, before any route's check: it returns
 * nothing to let the request go on, `ANSWERED` when it has sent the answer itself (a CORS
 * preflight), or throws an ApiError that becomes the answer.
 */
export type FrontStep = (request: FastifyRequest, reply: FastifyReply) => typeof ANSWERED | void;

declare module 'fastify' {
  interface FastifyRequest {
    /** performance.now() when the request came in: the journal's duration starts here. */
    receivedAt: number;
  }
}

/**
 * The server's one `onRequest` hook: the request's arrival time, then each step in order.
 * Every request passes these steps; one hook that calls them costs a request one pass through
 * Fastify's hook runner instead of one for each.
 */
export function addFrontDoor(app: FastifyInstance, steps: readonly FrontStep[]): void {
  app.decorateRequest('receivedAt', 0);
  app.addHook('onRequest', function frontDoor(request, reply, done) {
    request.receivedAt = performance.now();
    try {
      for (const step of steps) if (step(request, reply) === ANSWERED) return;
    } catch (error) {
      done(error as Error);
      return;
    }
    done();
  });
}
