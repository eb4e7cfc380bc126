import type { FastifyRequest } from 'fastify';

/** Up to this much of a refused body is read and dropped before answering. */
export const DRAIN_LIMIT_BYTES = 8 * 1024 * 1024;
/** And for at most this long. */
const DRAIN_TIMEOUT_MS = 2000;

/**
 * Waits until the rest of a refused request body has been read and dropped, so that the answer
 * (413) reaches the client. Fastify closes the connection after refusing a body; were unread
 * data still arriving, the close would become a reset, and a client still writing (Node's
 * http and fetch among them) would see its write fail instead of the answer. Bodies larger
 * than DRAIN_LIMIT_BYTES are not waited for.
 */
export function drainRefusedBody(request: FastifyRequest): Promise<void> {
  const raw = request.raw;
  const length = Number(raw.headers['content-length']);
  if (raw.readableEnded || raw.destroyed || !(length <= DRAIN_LIMIT_BYTES)) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      raw.off('end', done).off('close', done).off('error', done);
      resolve();
    };
    const timer = setTimeout(done, DRAIN_TIMEOUT_MS);
    raw.on('end', done).on('close', done).on('error', done);
    raw.resume();
  });
}
