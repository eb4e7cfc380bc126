import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../shared/clock.js';
import type { ErrorFactory } from '../../errors.js';
import type { ErrorMessage } from '../error-messages.js';
import type { FilterLimits, Spec } from '../../spec/index.js';
import type { OperationId } from '../../spec/types.js';
import type { FakeState } from '../../store/state.js';
import type { SessionHosts } from '../host-origin-guard.js';
import type { ResolvedFakeOptions } from '../options.js';

/** What every handler may use besides the request. */
export interface HandlerContext {
  readonly state: FakeState;
  readonly errors: ErrorFactory;
  /** The messages of the document's error list (`x-messages`). */
  readonly messages: ErrorMessage;
  readonly spec: Spec;
  /** The event log filter's limits, from the document (or the kit's own when it states none). */
  readonly filterLimits: FilterLimits;
  readonly clock: Clock;
  readonly options: ResolvedFakeOptions;
  /** Cookie names: the session cookie of the document's cookie scheme, and the CSRF cookie. */
  readonly cookies: { readonly session: string; readonly csrf: string };
  /** Where sessions are created (createSession tells it), to explain a cookie a page did not send. */
  readonly sessionHosts?: SessionHosts;
}

/**
 * The handler of one operation. By the time it runs, the caller is authenticated and
 * permitted (`request.caller`), and params, query, headers and body are valid. It returns
 * the body of the operation's success response (its one 2xx in the document, whose status
 * is sent), or nothing when that response has no body; it throws ApiErrors for the rest.
 */
export type OperationHandler = (
  request: FastifyRequest,
  reply: FastifyReply,
  context: HandlerContext,
) => unknown | Promise<unknown>;

/** Handlers keyed by operationId: the shared key between the document and the code. */
export type HandlerMap = Partial<Record<OperationId, OperationHandler>>;
