import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiError, ErrorFactory } from '../errors.js';
import { SeedFailedError } from '../store/event-log.js';
import type { FakeState } from '../store/state.js';
import type { ErrorMessage } from './error-messages.js';
import { ClosedWhileMakingError } from './seed-making.js';

interface EventLogContext {
  readonly state: FakeState;
  readonly errors: ErrorFactory;
  readonly messages: ErrorMessage;
}

/** The answer to a request whose event log could not be made, in the document's words. */
function notMade({ errors, messages }: EventLogContext, error: unknown): ApiError {
  if (error instanceof SeedFailedError) return errors('INTERNAL_ERROR', messages('INTERNAL_ERROR', 'recordsNotMade', { reason: error.reason }));
  if (error instanceof ClosedWhileMakingError) return errors('INTERNAL_ERROR', messages('INTERNAL_ERROR', 'closedWhileMaking'));
  return errors('INTERNAL_ERROR', messages('INTERNAL_ERROR', 'unexpected'));
}

/**
 * Runs `use` once the event log's records are made: at once when they are (always but in the
 * first seconds of a large seed), else when the making, which goes on in turns of the event
 * loop, ends; other requests are answered meanwhile, and the callers that wait resume in the
 * order they came, with the store's own waiting calls (EventLogStore.whenMade), so writes and
 * resets keep their order. A making that failed, or that the server's close stopped, answers
 * INTERNAL_ERROR saying so.
 */
export function afterEventLog<T>(context: EventLogContext, use: () => T): T | Promise<Awaited<T>> {
  return context.state.data.events.whenMade(use, (error) => notMade(context, error));
}

/** The handler, run once the event log's records are made (see afterEventLog). */
export function needsEventLog<C extends EventLogContext>(handler: (request: FastifyRequest, reply: FastifyReply, context: C) => unknown) {
  return (request: FastifyRequest, reply: FastifyReply, context: C): unknown => afterEventLog(context, () => handler(request, reply, context));
}
