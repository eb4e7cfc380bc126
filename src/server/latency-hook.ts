import type { FastifyInstance, FastifyRequest, onSendHookHandler } from 'fastify';
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
 * no route takes). Add it before the routes. Each API route gets its own onSend hook, its
 * operationId known when the route is added (Fastify builds a new `routeOptions` object each
 * time a request asks for it); a server-wide one covers the API's paths no route takes. With
 * no latency (the usual case) it costs a call.
 */
export function addLatencyHooks(app: FastifyInstance, latencyMs: (operationId: string | undefined, request: FastifyRequest) => number, sleep: Sleep, prefix: string): void {
  const delayed = (ms: number, payload: unknown, done: (error: Error | null, payload?: unknown) => void) => {
    sleep(ms).then(
      () => done(null, payload),
      (error: unknown) => done(error as Error),
    );
  };
  app.addHook('onRoute', (route) => {
    if (route.config?.surface !== 'api') return;
    const operationId = route.config.operationId;
    const addLatency: onSendHookHandler<unknown> = function addLatency(request, _reply, payload, done) {
      const ms = latencyMs(operationId, request);
      if (ms > 0) delayed(ms, payload, done);
      else done(null, payload);
    };
    route.onSend = [...(route.onSend === undefined ? [] : [route.onSend].flat()), addLatency] as typeof route.onSend;
  });
  app.addHook('onSend', function addUnroutedLatency(request, _reply, payload, done) {
    const ms = request.is404 ? latencyMs(undefined, request) : 0;
    if (ms > 0 && ofTheApi(request, prefix)) delayed(ms, payload, done);
    else done(null, payload);
  });
}
