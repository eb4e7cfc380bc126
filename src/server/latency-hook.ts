import type { FastifyRequest, onSendHookHandler } from 'fastify';
import { routedPath } from './request-path.js';

/** Waits `ms`; injected in tests so nothing sleeps. */
export type Sleep = (ms: number) => Promise<void>;

/** Whether an answer is one of the monitoring API's: its route's, or for a path under `prefix` no route takes. */
export function ofTheApi(request: FastifyRequest, prefix: string): boolean {
  if (!request.is404) return request.routeOptions.config.surface === 'api';
  const path = routedPath(request.url);
  return path === prefix || path.startsWith(`${prefix}/`);
}

/**
 * Delays every answer of the monitoring API (not the control API or the docs) by the
 * configured latency of its operation (`latencyMs(operationId, request)`; undefined for a path
 * no route takes). A callback hook: with no latency (the usual case) it costs a call.
 */
export function createLatencyHook(latencyMs: (operationId: string | undefined, request: FastifyRequest) => number, sleep: Sleep, prefix: string): onSendHookHandler<unknown> {
  return function addLatency(request, _reply, payload, done) {
    const ms = latencyMs(request.is404 ? undefined : request.routeOptions.config.operationId, request);
    if (ms > 0 && ofTheApi(request, prefix)) {
      sleep(ms).then(() => done(null, payload), done);
      return;
    }
    done(null, payload);
  };
}
