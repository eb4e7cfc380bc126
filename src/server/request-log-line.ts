import type { FastifyReply, FastifyRequest } from 'fastify';
import { pino, type Logger } from 'pino';

type LineStream = { write(line: string): void };

/** `.000` to `.999`: the thousandths of a millisecond, ready to write. */
const THOUSANDTHS = Array.from({ length: 1000 }, (_, i) => `.${String(i).padStart(3, '0')}`);

/**
 * A duration in ms as JSON text to the microsecond (`12.345`). The shortest text of a double,
 * which a template writes, cost more than the rest of the line; integers are cheap to write.
 */
export function millisecondsText(ms: number): string {
  const us = Math.max(0, Math.round(ms * 1000));
  return `${Math.trunc(us / 1000)}${THOUSANDTHS[us % 1000]}`;
}

/** Writes the line of one answered request (see requestLineWriter). */
export type RequestLineWriter = (request: FastifyRequest, reply: FastifyReply, url: string, user: string | undefined, aborted?: true) => void;

/**
 * The line of an answered request, written straight to the logger's destination: the same
 * JSON object pino would write for `log.info({ reqId, req, res, responseTime, user }, 'request
 * completed')` (its level, time and the logger's own fields first), made with one template.
 * pino's general path (serializers, key walks, the line assembled field by field) was most of
 * what logging cost a request (`npm run bench`). The URL is masked by the caller; every text
 * a client sent goes through JSON.stringify; the time is written to the microsecond. A request whose client went away before the answer
 * was all sent (`aborted`) gets the same fields, `"aborted":true` and its own message; its
 * status is the one sent, its time that until the client left. The time runs from the request's
 * arrival (answer-hook.ts) until the answer was handed to the connection, or for a streamed answer
 * until it ended. The logger's destination and own fields are read once, when the writer is made.
 */
export function requestLineWriter(log: Logger): RequestLineWriter {
  const stream = (log as unknown as Record<symbol, LineStream>)[pino.symbols.streamSym];
  if (stream === undefined) throw new Error('a pino logger without a destination stream');
  // The logger's own fields (pid, hostname…) as pino keeps them, ready to write: `,"pid":1,…`.
  const bound = String((log as unknown as Record<symbol, string | undefined>)[pino.symbols.chindingsSym] ?? '');
  return (request, reply, url, user, aborted) => {
    const userField = user === undefined ? '' : `,"user":${JSON.stringify(user)}`;
    stream.write(
      `{"level":30,"time":${Date.now()}${bound},"reqId":${JSON.stringify(String(request.id))},` +
        `"req":{"method":${JSON.stringify(request.method)},"url":${JSON.stringify(url)},"remoteAddress":${JSON.stringify(request.ip)}},` +
        `"res":{"statusCode":${reply.statusCode}},"responseTime":${millisecondsText(performance.now() - request.receivedAt)}${userField}` +
        (aborted ? ',"aborted":true,"msg":"request aborted"}\n' : ',"msg":"request completed"}\n'),
    );
  };
}
