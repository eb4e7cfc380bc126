import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, type ErrorFactory } from '../errors.js';
import type { ErrorCode } from '../spec/types.js';
import type { ErrorMessage } from './error-messages.js';

/** The size limit of request bodies, from the document's PayloadTooLarge gap-fill (64 KiB). */
export const BODY_LIMIT_BYTES = 64 * 1024;

/** Fastify's own error codes, and which error of the document's list each one is. */
const FASTIFY_CODES: Readonly<Record<string, ErrorCode>> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'MALFORMED_JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'MALFORMED_JSON',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'MALFORMED_JSON',
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_BAD_URL: 'INVALID_PARAMETER',
  FST_ERR_MAX_PARAM_LENGTH: 'INVALID_PARAMETER',
  FST_ERR_ROUTE_MISSING_CONTENT_TYPE: 'INVALID_PARAMETER',
};

/** For a client error of Fastify's that the list above does not name yet: the code its status stands for. */
const BY_STATUS: Readonly<Record<number, ErrorCode>> = {
  400: 'INVALID_PARAMETER',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
};

/** The message of each code above, from the document. */
const MESSAGES: Partial<Record<ErrorCode, (request: FastifyRequest, messages: ErrorMessage) => string>> = {
  MALFORMED_JSON: (_request, messages) => messages('MALFORMED_JSON', 'notJson'),
  PAYLOAD_TOO_LARGE: (request, messages) => messages('PAYLOAD_TOO_LARGE', 'tooLarge', { limit: String(request.routeOptions.bodyLimit ?? BODY_LIMIT_BYTES) }),
  UNSUPPORTED_MEDIA_TYPE: (_request, messages) => messages('UNSUPPORTED_MEDIA_TYPE', 'notJson'),
  INVALID_PARAMETER: (_request, messages) => messages('INVALID_PARAMETER', 'badUrl'),
};

/** Messages for Fastify errors whose code's usual message above would be wrong. */
const FASTIFY_MESSAGES: Readonly<Record<string, (messages: ErrorMessage) => string>> = {
  FST_ERR_ROUTE_MISSING_CONTENT_TYPE: (messages) => messages('INVALID_PARAMETER', 'queryContentType'),
};

/** The error of the list for one of Fastify's errors: by its code, else (for codes not listed yet) by its 4xx status. */
function fromFastify(error: Partial<FastifyError>, request: FastifyRequest, errors: ErrorFactory, messages: ErrorMessage): ApiError | undefined {
  const code = error.code ?? '';
  const named = FASTIFY_CODES[code];
  if (named) return errors(named, FASTIFY_MESSAGES[code]?.(messages) ?? MESSAGES[named]?.(request, messages) ?? String(error.message));
  const byStatus = code.startsWith('FST_') && error.statusCode !== undefined ? BY_STATUS[error.statusCode] : undefined;
  return byStatus ? errors(byStatus, String(error.message)) : undefined;
}

/**
 * Turns anything thrown while serving a request into an error of the document's list.
 * Bad input always lands on a 4xx; only a failure of the fake itself is INTERNAL_ERROR.
 */
export function toApiError(error: unknown, request: FastifyRequest, errors: ErrorFactory, messages: ErrorMessage): ApiError {
  if (error instanceof ApiError) return error;
  const fastifyError = error as Partial<FastifyError>;
  // The body stopped coming: Node cut the request at its timeout (the client got 408 on the
  // socket), or the client went away. Not a failure of the fake; the journal says what it was.
  if (fastifyError.code === 'ECONNRESET' && !request.raw.complete) return errors('REQUEST_TIMEOUT', messages('REQUEST_TIMEOUT', 'late'));
  const mapped = fromFastify(fastifyError, request, errors, messages);
  if (mapped) return mapped;
  // A JSON body that fails to parse without Fastify's code (e.g. a SyntaxError from a parser).
  if (error instanceof SyntaxError) return errors('MALFORMED_JSON', messages('MALFORMED_JSON', 'notJson'));
  return errors('INTERNAL_ERROR', messages('INTERNAL_ERROR', 'unexpected'));
}

/** Sends an ApiError as the document's Error body, with its extra headers. */
export function sendApiError(reply: FastifyReply, error: ApiError): FastifyReply {
  if (error.headers) void reply.headers(error.headers);
  return reply.code(error.status).type('application/json; charset=utf-8').send(error.text);
}
