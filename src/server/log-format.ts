import { createRequire } from 'node:module';

// Loaded only for the readable format (a terminal's): never on the JSON path, nor in the bin's start-up bundle.
const load = createRequire(import.meta.url);

type LineStream = { write(line: string): void };

/** How log lines are written: one JSON object a line, or one line a person reads (pino-pretty). */
export type LogFormat = 'json' | 'pretty';

/** The fields of the line of an answered request (see request-log-line.ts). */
interface RequestLine {
  readonly req?: { readonly method?: string; readonly url?: string };
  readonly res?: { readonly statusCode?: number };
  readonly responseTime?: number;
  readonly user?: string;
  readonly aborted?: boolean;
}

const REQUEST_MESSAGES = new Set(['request completed', 'request aborted']);

/** `GET /node/api/users/current 200 1.2 ms admin` (and `aborted` for a client that left mid-answer): what a developer scans a terminal for. */
function requestSummary(line: RequestLine & Record<string, unknown>, messageKey: string): string {
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
export function prettyLines(out: LineStream, colorize: boolean): LineStream {
  const { prettyFactory } = load('pino-pretty') as typeof import('pino-pretty');
  const pretty = prettyFactory({
    colorize,
    singleLine: true,
    translateTime: 'HH:MM:ss.l',
    ignore: 'pid,hostname,reqId,req,res,responseTime,user,aborted',
    messageFormat: (line, messageKey) => requestSummary(line as RequestLine & Record<string, unknown>, messageKey),
  });
  return { write: (line) => out.write(pretty(line)) };
}
