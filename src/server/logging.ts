import { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { pino, type LoggerOptions } from 'pino';
import { isStreamed, type AnswerStep } from './answer-hook.js';
import { lazyChildLogger } from './lazy-child-logger.js';
import { prettyLines } from './log-format.js';
import { requestLineWriter } from './request-log-line.js';
import { stdoutLogStream } from './log-stream.js';
import type { FakeLoggerOptions } from './options.js';
import { maskUrl as maskSecretUrl } from '../shared/redaction/mask-url.js';
import { LOG_MASK, SECRET_NAMES } from '../shared/redaction/secret-names.js';

/** The URL as the logs and the journal show it: its userinfo and secret query parameters masked. */
export const maskUrl = (target: string): string => maskSecretUrl(target, LOG_MASK);

type LoggerSettings = Pick<FastifyServerOptions, 'logger' | 'logController' | 'childLoggerFactory'>;

/** The fake's logging: Fastify's options, and what to add to the app once it is made (before any plugin). */
export interface Logging {
  readonly fastifyOptions: LoggerSettings;
  attach(app: FastifyInstance): void;
  /**
   * The line of an answered request, a step of the answer hook (answer-hook.ts); undefined where
   * no request line is written (below `info`).
   */
  readonly requestLine?: AnswerStep;
}

/**
 * Logging that never writes a secret: requests are logged by method and masked URL only (no
 * headers, so no Authorization or Cookie), responses by status only, errors by name, message,
 * code and stack only, and any object logged by hand has its credential fields censored.
 *
 * Cheap per request, so that logging on costs little throughput. Fastify is given no logger
 * of its own: with one, it times every reply and listens for its end (`setupResponseListeners`),
 * and so it does for any `onResponse` hook. The fake's pino is `app.log`, requests get a child
 * of it made only when something is logged through it (lazy-child-logger.ts), and the line of
 * an answered request is one template written by the answer hook when the answer is handed to
 * the connection (a streamed answer's when it ends, or when its client leaves mid-answer), at
 * `info` only. stdout is written in blocks (log-stream.ts).
 */
export function createLogging(options: false | FakeLoggerOptions): Logging {
  // Silent is no logger at all.
  if (options === false || options.level === 'silent') return { fastifyOptions: { logger: false }, attach: () => {} };
  const stream = options.stream ?? stdoutLogStream();
  const log = pino(loggerOptions(options), options.format === 'pretty' ? prettyLines(stream, options.stream === undefined && process.stdout.isTTY === true) : stream);
  const writeLine = requestLineWriter(log);
  const lineOf = (request: FastifyRequest, reply: FastifyReply, aborted?: true) => writeLine(request, reply, maskUrl(request.url), request.caller?.user.login, aborted);
  return {
    fastifyOptions: {
      logger: false,
      logController: new StreamErrorsOnly(),
      // Fastify's own (null) logger is the parent it passes: the fake's pino is.
      childLoggerFactory: (_fastifys, bindings, childOptions) => lazyChildLogger(log, bindings, childOptions),
    },
    attach(app) {
      // Plugins registered later inherit it, and Fastify logs its listening address with it.
      app.log = log;
    },
    ...(log.isLevelEnabled('info')
      ? {
          requestLine(request, reply, payload) {
            const response = reply.raw;
            // A client that left while its answer waited (an added latency, a long query) gets nothing.
            if (response.destroyed) lineOf(request, reply, true);
            else if (!isStreamed(payload)) lineOf(request, reply);
            // Node emits 'close' after 'finish' too, and no 'finish' for an answer cut short.
            else response.once('close', () => lineOf(request, reply, response.writableFinished ? undefined : true));
          },
        }
      : {}),
  };
}

function loggerOptions(options: FakeLoggerOptions): LoggerOptions {
  return {
    level: options.level ?? 'info',
    serializers: {
      req: (request: FastifyRequest) => ({ method: request.method, url: maskUrl(request.url), remoteAddress: request.ip }),
      res: (reply: { statusCode: number }) => ({ statusCode: reply.statusCode }),
      // Named fields only: errors can carry the request's raw bytes (Node's parser errors keep
      // the whole packet, headers included, in `rawPacket`) or other input.
      err: (error: Error & { code?: unknown; statusCode?: unknown }) => ({
        type: error.name,
        message: error.message,
        ...(error.code !== undefined ? { code: error.code } : {}),
        ...(error.statusCode !== undefined ? { statusCode: error.statusCode } : {}),
        stack: error.stack ?? '',
      }),
    },
    redact: {
      // Every secret name, at the top of a logged object, one level down and in its headers.
      paths: SECRET_NAMES.flatMap((name) => [`["${name}"]`, `*["${name}"]`, `headers["${name}"]`, `*.headers["${name}"]`]),
      censor: LOG_MASK,
    },
  };
}

/**
 * Fastify's request logging, for what it still reports with no logger of its own: a stream that
 * failed while it was sent. Fastify writes no line when a request comes in (the fake's line is
 * written when it is answered), and a streamed answer that its client cut short has its own
 * line, which says so.
 */
class StreamErrorsOnly extends LogController {
  override incomingRequest(): void {}

  override streamError(error: Error & { code?: unknown }, request: FastifyRequest, reply: FastifyReply, metadata?: Record<string, unknown>): void {
    if (error.code !== 'ERR_STREAM_PREMATURE_CLOSE') super.streamError(error, request, reply, metadata);
  }
}
