import type { onSendHookHandler } from 'fastify';

/** Waits `ms`; injected in tests so nothing sleeps. */
export type Sleep = (ms: number) => Promise<void>;

/**
 * Delays every answer under `prefix` (the monitoring API, not the control API or the docs) by
 * the configured latency. A callback hook: with no latency (the usual case) it costs a call.
 */
export function createLatencyHook(latencyMs: () => number, sleep: Sleep, prefix: string): onSendHookHandler<unknown> {
  return function addLatency(request, _reply, payload, done) {
    const ms = latencyMs();
    const url = request.url;
    if (ms > 0 && (url === prefix || url.startsWith(`${prefix}/`) || url.startsWith(`${prefix}?`))) {
      sleep(ms).then(() => done(null, payload), done);
      return;
    }
    done(null, payload);
  };
}
