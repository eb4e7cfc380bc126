import type { ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';

/**
 * Runs `start` once: when the server's first answer has been sent, or `delayMs` from now if no
 * request comes first. Background work started this way (warming caches, making records) never
 * runs while the start-up's first request is being served. The function returned cancels it
 * (e.g. when the server closes first).
 */
export function afterFirstAnswer(app: FastifyInstance, delayMs: number, start: () => void): () => void {
  let pending = true;
  const onRequest = (_request: unknown, response: ServerResponse) => response.once('close', fire);
  const timer = setTimeout(fire, delayMs).unref();
  function cancel() {
    pending = false;
    clearTimeout(timer);
    app.server.off('request', onRequest);
  }
  function fire() {
    if (!pending) return;
    cancel();
    start();
  }
  app.server.once('request', onRequest);
  return cancel;
}
