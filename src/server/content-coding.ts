import type { FastifyRequest } from 'fastify';
import type { ApiError, ErrorFactory } from '../errors.js';
import type { ErrorMessage } from './error-messages.js';

/** The most of a refused Content-Encoding header a message repeats. */
const SHOWN_CODING_CHARS = 100;

/** Whether a Content-Encoding header names a coding other than `identity` (codings are case-insensitive, RFC 9110 8.4.1). */
function coded(header: string): boolean {
  for (const coding of header.split(',')) {
    const name = coding.trim();
    if (name !== '' && name.toLowerCase() !== 'identity') return true;
  }
  return false;
}

/**
 * The refusal of a content-coded request body (`Content-Encoding: gzip`, or any other coding
 * but `identity`), or undefined for a body as sent. The fake decodes no coding: read as JSON,
 * coded bytes would be taken for a malformed body, or a body sent with a wrong header for the
 * body meant. RFC 9110 15.5.16 answers an unsupported coding with 415.
 */
export function codedBodyRefusal(request: FastifyRequest, errors: ErrorFactory, messages: ErrorMessage): ApiError | undefined {
  const header = request.headers['content-encoding'];
  if (header === undefined || !coded(header)) return undefined;
  return errors('UNSUPPORTED_MEDIA_TYPE', messages('UNSUPPORTED_MEDIA_TYPE', 'coded', { coding: JSON.stringify(header.slice(0, SHOWN_CODING_CHARS)) }));
}
