import { isStreamed, type AnswerStep } from './answer-hook.js';

/**
 * Answers that the kernel takes whole at once, whatever the client does: up to Linux's default
 * send buffer of a connection (tcp_wmem, 16 KiB). Once taken, the server holds nothing of them,
 * and the idle and keep-alive timeouts close the connection; only longer answers need a deadline.
 */
const TAKEN_AT_ONCE_BYTES = 16 * 1024;

/** A stream (a streamed page, a docs asset: Fastify pipes whatever has `pipe`), or text longer than the kernel takes at once. */
const longAnswer = (payload: unknown): boolean =>
  isStreamed(payload) || ((typeof payload === 'string' || Buffer.isBuffer(payload)) && payload.length > TAKEN_AT_ONCE_BYTES);

/**
 * Gives every long answer a deadline from the moment it is handed to the connection: a client
 * that has not taken all of it `timeoutMs` later loses the connection. The idle timeout closes a
 * connection on which nothing moves, but a client that reads a few kilobytes now and then keeps it
 * moving, and would hold a streamed page (its array, the records not sent yet, and after a reset
 * records no longer in the store) as long as it liked. A step of the answer hook (answer-hook.ts),
 * after the latency: latency and waits before the answer do not count.
 */
export function sendDeadline(timeoutMs: number): AnswerStep {
  return function startSendDeadline(request, reply, payload) {
    const response = reply.raw;
    if (!longAnswer(payload) || response.destroyed) return;
    const timer = setTimeout(() => {
      if (response.destroyed || response.writableFinished) return;
      // A client too slow is no fault of the server: logged at info, as a client that leaves is.
      request.log.info({ sendTimeoutMs: timeoutMs }, 'closed the connection: the client did not take the answer within the send timeout');
      response.destroy();
    }, timeoutMs).unref();
    response.once('close', () => clearTimeout(timer));
  };
}
