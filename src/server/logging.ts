import type { FastifyRequest, FastifyServerOptions } from 'fastify';
import type { FakeLoggerOptions } from './options.js';

const CENSOR = '[redacted]';
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
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = decoded(eq < 0 ? pair : pair.slice(0, eq)).toLowerCase();
      return SECRET_PARAMETERS.has(name) && eq >= 0 ? `${pair.slice(0, eq)}=${CENSOR}` : pair;
    })
    .join('&');
  return `${url.slice(0, q)}?${query}`;
}

/**
 * Fastify logger settings that never write a secret: requests are logged by method and
 * masked URL only (no headers, so no Authorization or Cookie), responses by status only,
 * errors by name, message, code and stack only, and any object logged by hand has its
 * credential fields censored.
 */
export function loggerSettings(options: false | FakeLoggerOptions): FastifyServerOptions['logger'] {
  // Silent is no logger at all: pino would still build a child logger for every request.
  if (options === false || options.level === 'silent') return false;
  return {
    level: options.level ?? 'info',
    ...(options.stream ? { stream: options.stream } : {}),
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
