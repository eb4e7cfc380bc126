import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorFactory } from '../errors.js';
import type { FakeState } from '../store/state.js';

interface EventLogContext {
  readonly state: FakeState;
  readonly errors: ErrorFactory;
}

/**
 * Runs `use` once the event log's records are made: at once when they are (always but in the
 * first seconds of a large seed), else when the making, which goes on in turns of the event
 * loop, ends; other requests are answered meanwhile, and the callers that wait resume in the
 * order they came, so writes keep their order. A making that failed, or that the server's
 * close stopped, answers INTERNAL_ERROR saying so.
 */
export function afterEventLog<T>({ state, errors }: EventLogContext, use: () => T): T | Promise<T> {
  const waiting = state.data.events.ready();
  if (waiting === undefined) return use();
  return waiting.then(use, (error: unknown) => {
    throw errors('INTERNAL_ERROR', (error as Error).message);
  });
}

/** The handler, run once the event log's records are made (see afterEventLog). */
export function needsEventLog<C extends EventLogContext>(handler: (request: FastifyRequest, reply: FastifyReply, context: C) => unknown) {
  return (request: FastifyRequest, reply: FastifyReply, context: C): unknown => afterEventLog(context, () => handler(request, reply, context));
}
