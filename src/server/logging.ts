import { LogController, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { pino, type Logger } from 'pino';
import { lazyChildLogger } from './lazy-child-logger.js';
import { prettyLines } from './log-format.js';
import { writeRequestLine } from './request-log-line.js';
import { stdoutLogStream } from './log-stream.js';
import type { FakeLoggerOptions } from './options.js';

/** What a masked secret reads, in the logs and in the request journal. */
export const CENSOR = '[redacted]';
/** Query parameters whose values are secrets. */
const SECRET_PARAMETERS = new Set(['api-token', 'auth-token', 'password', 'sid', 'csrf']);

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** The URL with the values of secret query parameters replaced. */
export function maskUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const text = url.slice(q + 1);
  // Names without escapes (the usual case) need no decoding: a line is logged per request.
  const escaped = text.includes('%') || text.includes('+');
  const query = text
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const raw = eq < 0 ? pair : pair.slice(0, eq);
      const name = (escaped ? decoded(raw) : raw).toLowerCase();
      return SECRET_PARAMETERS.has(name) && eq >= 0 ? `${pair.slice(0, eq)}=${CENSOR}` : pair;
    })
    .join('&');
  return `${url.slice(0, q)}?${query}`;
}

type LoggerSettings = Pick<FastifyServerOptions, 'logger' | 'logController' | 'childLoggerFactory'>;

/**
 * Fastify logger settings that never write a secret: requests are logged by method and
 * masked URL only (no headers, so no Authorization or Cookie), responses by status only,
 * errors by name, message, code and stack only, and any object logged by hand has its
 * credential fields censored.
 *
 * Cheap per request, so that logging on costs little throughput: one line per request
 * (OneLinePerRequest) instead of Fastify's two, a request's child logger made only when
 * something is logged through it, and stdout written a turn of the event loop at a time.
 */
export function loggerSettings(options: false | FakeLoggerOptions): LoggerSettings {
  // Silent is no logger at all: pino would still build a child logger for every request.
  if (options === false || options.level === 'silent') return { logger: false };
  return {
    logController: new OneLinePerRequest(),
    childLoggerFactory: lazyChildLogger,
    logger: loggerOptions(options),
  };
}

function loggerOptions(options: FakeLoggerOptions): FastifyServerOptions['logger'] {
  return {
    level: options.level ?? 'info',
    stream: options.format === 'pretty' ? prettyLines(options.stream ?? stdoutLogStream(), options.stream === undefined && process.stdout.isTTY === true) : (options.stream ?? stdoutLogStream()),
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
      paths: [
        'headers.authorization',
        'headers.cookie',
        'headers["set-cookie"]',
        'headers["x-csrf-token"]',
        '*.headers.authorization',
        '*.headers.cookie',
        '*.headers["set-cookie"]',
        '*.headers["x-csrf-token"]',
        'password',
        '*.password',
        '*["api-token"]',
        '*["auth-token"]',
      ],
      censor: CENSOR,
    },
  };
}

/**
 * Fastify's request logging in one line per answered request, at info: method, masked URL,
 * client address, status, milliseconds and the caller's login, under the request's id (see
 * request-log-line.ts). Its fields are named ones alone (the URL masked), so the redaction
 * paths have nothing to walk.
 */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) return super.requestCompleted(error, request, reply);
    const log = request.server.log as Logger;
    if (!log.isLevelEnabled('info')) return;
    writeRequestLine(log, { request, reply, url: maskUrl(request.url), user: request.caller?.user.login });
  }
}
