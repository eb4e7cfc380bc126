import { createRequire } from 'node:module';
import { LogController, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import { pino, type LoggerOptions } from 'pino';
import type { FakeLoggerOptions } from './options.js';
import { maskUrl } from '../shared/redaction/mask-url.js';
import { LOG_MASK, SECRET_NAMES } from '../shared/redaction/secret-names.js';

/** How log lines are written: one JSON object a line, or one line a person reads (pino-pretty). */
export type LogFormat = 'json' | 'pretty';

type LineStream = { write(line: string): void };

/** The parts of a request whose fields a handler may log as they are. */
const REQUEST_PARTS = ['headers', 'body', 'query', 'cookies'];

/**
 * Fastify's own logger (pino), so that nothing it or a handler logs shows a secret: requests by
 * method, masked URL and client address (no headers, so no Authorization or Cookie), answers by
 * status, errors by named fields, and every secret name (secret-names.ts) censored in any object
 * logged by hand. One line per answered request (OneLinePerRequest), none when it comes in.
 */
export function loggerSettings(options: false | FakeLoggerOptions): Pick<FastifyServerOptions, 'logger' | 'logController'> {
  if (options === false || options.level === 'silent') return { logger: false };
  // Lines go out in blocks of 4 KiB, or after 100 ms at the latest, not one write each; pino
  // writes what is left when the process exits.
  const out = options.stream ?? pino.destination({ dest: 1, sync: false, minLength: 4096, periodicFlush: 100 });
  const stream = options.format === 'pretty' ? prettyLines(out, options.stream === undefined && process.stdout.isTTY === true) : out;
  const logger: LoggerOptions = {
    level: options.level ?? 'info',
    serializers: {
      req: (request: FastifyRequest) => ({ method: request.method, url: maskUrl(request.url, LOG_MASK), remoteAddress: request.ip }),
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
    // Every secret name, at the top of an object logged by hand and in the parts of a request it
    // may log (`{ headers: request.headers, body: request.body }`). Named paths only: a wildcard
    // (`*.x`) makes pino walk every field of every line, a request's line too (20× its cost).
    redact: { paths: SECRET_NAMES.flatMap((name) => [`["${name}"]`, ...REQUEST_PARTS.map((part) => `${part}["${name}"]`)]), censor: LOG_MASK },
  };
  return { logger: { ...logger, stream }, logController: new OneLinePerRequest() };
}

/**
 * The line of an answered request, when its answer was all sent, with the user it was answered
 * for; a streamed answer whose client left mid-answer gets the same line saying `aborted`.
 */
class OneLinePerRequest extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) super.requestCompleted(error, request, reply);
    else requestLine(request, reply);
  }

  override streamError(error: Error & { code?: unknown }, request: FastifyRequest, reply: FastifyReply): void {
    if (error.code === 'ERR_STREAM_PREMATURE_CLOSE') requestLine(request, reply, true);
    else super.streamError(error, request, reply);
  }
}

/** Writes the line of an answered request (and of one whose client left before it was all sent). */
export function requestLine(request: FastifyRequest, reply: FastifyReply, aborted?: true): void {
  const fields = { req: request, res: reply, responseTime: reply.elapsedTime, user: request.caller?.user.login };
  if (aborted) reply.log.info({ ...fields, aborted }, 'request aborted');
  else reply.log.info(fields, 'request completed');
}

// Loaded only for the readable format (a terminal's): never on the JSON path, nor in the bin's start-up bundle.
const load = createRequire(import.meta.url);

/** The fields of the line of an answered request. */
interface RequestFields {
  readonly req?: { readonly method?: string; readonly url?: string };
  readonly res?: { readonly statusCode?: number };
  readonly responseTime?: number;
  readonly user?: string;
  readonly aborted?: boolean;
}

const REQUEST_MESSAGES = new Set(['request completed', 'request aborted']);

/** `GET /node/api/users/current 200 1.2 ms admin` (and `aborted` for a client that left mid-answer): what a developer scans a terminal for. */
function requestSummary(line: RequestFields & Record<string, unknown>, messageKey: string): string {
  const { req, res, responseTime, user } = line;
  if (!REQUEST_MESSAGES.has(line[messageKey] as string) || req === undefined || res === undefined) return String(line[messageKey] ?? '');
  const ms = typeof responseTime === 'number' ? `${responseTime.toFixed(1)} ms` : '';
  const aborted = line.aborted === true ? 'aborted' : undefined;
  return [req.method, req.url, res.statusCode, ms, user, aborted].filter((part) => part !== undefined && part !== '').join(' ');
}

/**
 * Lines for a terminal: pino-pretty's time, level and colours, the request's summary as the
 * message, and the other fields of any other line on the same line. It reads the JSON lines
 * pino made (already masked), so it shows nothing that the JSON format would not.
 */
function prettyLines(out: LineStream, colorize: boolean): LineStream {
  const { prettyFactory } = load('pino-pretty') as typeof import('pino-pretty');
  const pretty = prettyFactory({
    colorize,
    singleLine: true,
    translateTime: 'HH:MM:ss.l',
    ignore: 'pid,hostname,reqId,req,res,responseTime,user,aborted',
    messageFormat: (line, messageKey) => requestSummary(line as RequestFields & Record<string, unknown>, messageKey),
  });
  return { write: (line) => out.write(pretty(line)) };
}
