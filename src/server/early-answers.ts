import type { Socket } from 'node:net';
import type { AnswerStep } from './answer-hook.js';
import { announcesBody } from './json-body.js';

/** Connections whose request was answered before its body had all arrived. */
export interface EarlyAnswers {
  /** The answer hook's step that notes them (answer-hook.ts). */
  readonly step: AnswerStep;
  /** Whether the connection's request was answered and its body is still arriving. */
  answered(socket: Socket): boolean;
}

/**
 * The fake answers some requests without reading their body: a 404, 401 or 403 for a request
 * that sends one. Node then goes on reading and dropping that body, to keep the connection. If
 * the body never ends, Node's request timeout reports the request as too slow; answered with a
 * 408, the connection would carry a second answer to one request, which a keep-alive client
 * takes as the answer to its next. The transport's error handler closes such a connection
 * instead (transport-errors.ts).
 */
export function createEarlyAnswers(): EarlyAnswers {
  const early = new WeakSet<Socket>();
  return {
    step(request) {
      const raw = request.raw;
      // A request answered in the turn it came in is not yet `complete` even without a body:
      // Node marks it so after the handler has run. Most requests have none.
      if (raw.complete || !announcesBody(raw)) return;
      const socket = raw.socket;
      early.add(socket);
      raw.once('end', () => early.delete(socket));
    },
    answered: (socket) => early.has(socket),
  };
}
