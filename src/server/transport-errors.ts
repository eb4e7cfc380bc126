import { maxHeaderSize, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { ApiError, ErrorFactory } from '../errors.js';
import type { ErrorMessage } from './error-messages.js';

// Requests Node answers by itself, before Fastify sees them, with its own bodies or none. Here
// each gets the document's Error body instead.

/** What Node's HTTP parser reports about a request it refused (never logged whole: see below). */
interface ClientError extends Error {
  readonly code?: string;
  /** llhttp's fixed text for the problem, e.g. "Invalid header token". */
  readonly reason?: string;
}

/** How long an answer to a refused request may take to leave before the connection is cut. */
const CLOSE_AFTER_MS = 2000;

/** Writes the error as a whole HTTP answer straight to the socket, then closes it. */
function answerAndClose(socket: Socket, apiError: ApiError): void {
  const body = JSON.stringify(apiError.toBody());
  const head = [
    `HTTP/1.1 ${apiError.status} ${STATUS_CODES[apiError.status] ?? ''}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    'Connection: close',
  ];
  // Closed once the answer is out, or after a moment if the client does not read it.
  const timer = setTimeout(() => socket.destroy(), CLOSE_AFTER_MS).unref();
  socket.end(`${head.join('\r\n')}\r\n\r\n${body}`, () => {
    clearTimeout(timer);
    socket.destroy();
  });
}

/** The error of the document's list for what the parser refused. */
function apiErrorOf(error: ClientError, errors: ErrorFactory, messages: ErrorMessage): ApiError {
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    return errors('HEADERS_TOO_LARGE', messages('HEADERS_TOO_LARGE', 'tooLarge', { limit: String(maxHeaderSize) }));
  }
  if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return errors('REQUEST_TIMEOUT', messages('REQUEST_TIMEOUT', 'late'));
  }
  const reason = typeof error.reason === 'string' && error.code?.startsWith('HPE_') ? error.reason.slice(0, 100) : undefined;
  return errors('MALFORMED_REQUEST', reason === undefined ? messages('MALFORMED_REQUEST', 'notHttp') : messages('MALFORMED_REQUEST', 'notHttpBecause', { reason }));
}

/**
 * Fastify's `clientErrorHandler`: answers a request Node's parser refused (malformed, headers
 * too large, too slow) with the document's Error body, then closes the connection. The
 * parser's error carries `rawPacket`, the request's raw bytes with its Authorization, Cookie
 * and api-token; Fastify's own handler logs it at trace level. Here only the code is logged.
 */
export function createClientErrorHandler(errors: ErrorFactory, messages: ErrorMessage, answeredEarly: (socket: Socket) => boolean = () => false) {
  // Fastify calls it bound to the app.
  return function clientError(this: FastifyInstance, error: ClientError, socket: Socket): void {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const apiError = apiErrorOf(error, errors, messages);
    this.log.debug({ code: error.code, status: apiError.status }, 'refused a request the HTTP parser could not take');
    // Not into the middle of an answer already being written on this connection (Node's own
    // check), nor after the answer of a request whose body is still arriving (answer-hook.ts).
    const answering = (socket as Socket & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage?.headersSent === true;
    if (!socket.writable || answering || answeredEarly(socket)) socket.destroy();
    else answerAndClose(socket, apiError);
  };
}

/**
 * The other requests Node answers itself: CONNECT (it would close the connection without a
 * word; the fake is no proxy) and an `Expect` other than 100-continue (an empty 417).
 */
export function installTransportRefusals(server: Server, errors: ErrorFactory, messages: ErrorMessage): void {
  server.on('connect', (_request: IncomingMessage, socket: Socket) => {
    answerAndClose(socket, errors('METHOD_NOT_ALLOWED', messages('METHOD_NOT_ALLOWED', 'connect')));
  });
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    const error = errors('EXPECTATION_FAILED', messages('EXPECTATION_FAILED', 'unsupported', { expect: JSON.stringify(String(request.headers.expect).slice(0, 100)) }));
    response.writeHead(error.status, { 'content-type': 'application/json; charset=utf-8', connection: 'close' }).end(JSON.stringify(error.toBody()));
  });
}
