import type { FastifyRequest } from 'fastify';
import type { ApiError, ErrorFactory } from '../errors.js';
import type { Operation } from '../spec/index.js';
import { headersSentWith } from './documented-headers.js';
import type { ErrorMessage } from './error-messages.js';

/** The most of a refused Content-Encoding header a message repeats. */
const SHOWN_CODING_CHARS = 100;

/** The key of the refusal's message in UNSUPPORTED_MEDIA_TYPE's `x-messages`, which the headers that go with it name (`x-sent-with`). */
const CODED = 'coded';

/** Whether a Content-Encoding header names a coding other than `identity` (codings are case-insensitive, RFC 9110 8.4.1). */
function coded(header: string): boolean {
  for (const coding of header.split(',')) {
    const name = coding.trim();
    if (name !== '' && name.toLowerCase() !== 'identity') return true;
  }
  return false;
}

/** The refusal of a content-coded request body, or undefined for a body as sent. */
export type CodedBodyRefusal = (request: FastifyRequest) => ApiError | undefined;

/**
 * Refuses a content-coded request body (`Content-Encoding: gzip`, or any other coding but
 * `identity`). The fake decodes no coding: read as JSON, coded bytes would be taken for a
 * malformed body, or a body sent with a wrong header for the body meant. RFC 9110 15.5.16
 * answers an unsupported coding with 415, and 12.5.3 has that answer tell the codings taken
 * (Accept-Encoding): the refusal carries the headers the document sends with it.
 */
export function createCodedBodyRefusal(operations: readonly Operation[], errors: ErrorFactory, messages: ErrorMessage): CodedBodyRefusal {
  const headers = headersSentWith(operations, CODED);
  const extra = Object.keys(headers).length > 0 ? { headers } : {};
  return function codedBodyRefusal(request) {
    const header = request.headers['content-encoding'];
    if (header === undefined || !coded(header)) return undefined;
    return errors('UNSUPPORTED_MEDIA_TYPE', messages('UNSUPPORTED_MEDIA_TYPE', CODED, { coding: JSON.stringify(header.slice(0, SHOWN_CODING_CHARS)) }), extra);
  };
}
