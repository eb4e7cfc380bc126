import type { onSendAsyncHookHandler } from 'fastify';

/** Waits `ms`; injected in tests so nothing sleeps. */
export type Sleep = (ms: number) => Promise<void>;

/** Delays every answer under `prefix` (the monitoring API, not the control API or the docs) by the configured latency. */
export function createLatencyHook(latencyMs: () => number, sleep: Sleep, prefix: string): onSendAsyncHookHandler<unknown> {
  return async function addLatency(request, _reply, payload) {
    const ms = latencyMs();
    if (ms > 0 && (request.url === prefix || request.url.startsWith(`${prefix}/`) || request.url.startsWith(`${prefix}?`))) {
      await sleep(ms);
    }
    return payload;
  };
}
