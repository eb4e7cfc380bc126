import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { routedPath } from './request-path.js';
import type { Sleep } from './latency.js';

/** Whatever Fastify pipes to the client (a streamed page, a docs asset) rather than writes at once. */
export const isStreamed = (payload: unknown): boolean => typeof (payload as { pipe?: unknown } | null)?.pipe === 'function';

/** What is done with an answer before it is sent, once its latency has passed. */
export type AnswerStep = (request: FastifyRequest, reply: FastifyReply, payload: unknown) => void;

/** What the answer hook does, in order. */
export interface AnswerSteps {
  /** The monitoring API's paths start with this: an answer for a path under it that no route takes is the API's. */
  readonly apiPrefix: string;
  /** The wait before one of the API's answers is sent: its operation's latency (undefined for a path no route takes). */
  readonly latencyMs: (operationId: string | undefined, request: FastifyRequest) => number;
  readonly sleep: Sleep;
  /** Each of the API's answers, once its latency has passed (the request journal). */
  readonly keep?: (request: FastifyRequest, reply: FastifyReply, payload: unknown, operationId: string | undefined) => void;
  /** Every answer, once any latency has passed (the line of a client that left, the send deadline). */
  readonly afterLatency: readonly AnswerStep[];
}

/** Whether a path no route takes is under the API's prefix (however its target was spelled). */
function underPrefix(url: string, prefix: string): boolean {
  const path = routedPath(url);
  return path === prefix || path.startsWith(`${prefix}/`);
}

/**
 * The server's one `onSend` hook, for every answer (the API's, the control API's, the docs',
 * errors and paths no route takes): the latency of an answer of the monitoring API, then its
 * record in the journal, then the steps every answer has. Latency applies to the monitoring
 * API only, and comes first so that the journal's duration and the request line's time include
 * it. One hook, so that an answer costs one pass through Fastify's hook runner.
 */
export function addAnswerHook(app: FastifyInstance, steps: AnswerSteps): void {
  const { apiPrefix, latencyMs, sleep, keep, afterLatency } = steps;
  app.addHook('onSend', function answer(request, reply, payload, done) {
    // A route's own config (Fastify builds `routeOptions` when asked: only for routed requests).
    const config = request.is404 ? undefined : request.routeOptions.config;
    const ofTheApi = config === undefined ? underPrefix(request.url, apiPrefix) : config.surface === 'api';
    const operationId = config?.operationId;
    const finish = () => {
      if (ofTheApi) keep?.(request, reply, payload, operationId);
      for (const step of afterLatency) step(request, reply, payload);
      done(null, payload);
    };
    const ms = ofTheApi ? latencyMs(operationId, request) : 0;
    if (ms > 0) sleep(ms).then(finish, (error: unknown) => done(error as Error));
    else finish();
  });
}
