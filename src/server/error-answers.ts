import { finished } from 'node:stream/promises';
import { maxHeaderSize, STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, type ErrorFactory } from '../errors.js';
import { errorCatalog, fillMessage, responseMessages, type Document, type Operation, type Problems } from '../spec/index.js';
import type { ErrorCode, ErrorDetail } from '../spec/types.js';
import { routedPath } from './host-origin-guard.js';
import { ScriptedAnswer, type ScriptedAnswers } from './route-checks.js';

// Every error the fake answers, in the document's shape and words: its messages, Fastify's and
// Node's own refusals mapped onto its list, a request that does not match the document, a path
// no route takes.

type MessageNames = Readonly<Partial<Record<ErrorCode, readonly string[]>>>;
type MessagesByCode = ReadonlyMap<string, Readonly<Record<string, string>>>;

/** The messages the monitoring API's checks, hooks and handlers send, by code: the `x-messages` of its error list. */
const API_MESSAGES = {
  MALFORMED_JSON: ['notJson', 'notUtf8'],
  INVALID_PARAMETER: ['invalid', 'badUrl', 'queryContentType', 'problems', 'preferExample'],
  INVALID_BODY: ['invalid', 'problems', 'firstOnly'],
  MALFORMED_REQUEST: ['hostMissing', 'notHttp', 'notHttpBecause'],
  REQUEST_TIMEOUT: ['late'],
  UNAUTHENTICATED: ['missing', 'basicMalformed', 'basicWrong', 'sessionUnknown', 'sessionRepeated', 'tokenUnknown', 'differentUsers', 'cookieForOtherHost', 'loginWrong'],
  TOKEN_AUTH_DISABLED: ['disabled'],
  PERMISSION_DENIED: ['permissionMissing', 'hostInvalid', 'hostNotAllowed'],
  CSRF_TOKEN_INVALID: ['mismatch'],
  NOT_FOUND: ['user', 'record'],
  ROUTE_NOT_FOUND: ['noOperation', 'start'],
  METHOD_NOT_ALLOWED: ['notAllowed', 'connect'],
  PAYLOAD_TOO_LARGE: ['tooLarge'],
  EXPECTATION_FAILED: ['unsupported'],
  HEADERS_TOO_LARGE: ['tooLarge'],
  UNSUPPORTED_MEDIA_TYPE: ['notJson', 'missing', 'other', 'coded'],
  NOT_AN_SNMP_RECORD: ['notSnmp'],
  RATE_LIMITED: ['blocked'],
  INJECTED_FAULT: ['preferredStatus'],
  INTERNAL_ERROR: ['unexpected'],
} as const satisfies MessageNames;

/** The messages of the control API's refusals: the `x-messages` of its responses, by code. */
const CONTROL_MESSAGES = {
  PERMISSION_DENIED: ['notLoopback', 'hostNotThisServer', 'originNotAllowed'],
  INVALID_BODY: ['schemaProblem', 'schemaProblems', 'schemaProblemsListed', 'idExists', 'faultsFull', 'snapshotUnusable'],
  NOT_FOUND: ['fault'],
} as const satisfies MessageNames;

/** A message of a document, its `{placeholders}` filled in: the text lives in the document, not in code. */
export type Messages<N extends MessageNames> = <C extends keyof N & ErrorCode>(code: C, name: NonNullable<N[C]>[number], values?: Readonly<Record<string, string>>) => string;
export type ErrorMessage = Messages<typeof API_MESSAGES>;
export type ControlMessage = Messages<typeof CONTROL_MESSAGES>;
/** Why the guard refuses a request with 401, by the name of its message. */
export type UnauthenticatedMessage = (typeof API_MESSAGES)['UNAUTHENTICATED'][number];

/** Every message of `names`, looked up now (a document that lacks one fails at start), from the first source that has it. */
function createMessages<N extends MessageNames>(names: N, sources: readonly MessagesByCode[]): Messages<N> {
  const templates: Record<string, Record<string, string>> = {};
  for (const [code, list] of Object.entries(names) as [string, readonly string[]][]) {
    for (const name of list) {
      const template = sources.map((source) => source.get(code)?.[name]).find((m) => m !== undefined);
      if (template === undefined) throw new Error(`The document has no message "${name}" for "${code}" (x-messages).`);
      (templates[code] ??= {})[name] = template;
    }
  }
  return (code, name, values) => fillMessage(templates[code]![name]!, values);
}

const messagesOfList = (document: Document): MessagesByCode => new Map([...errorCatalog(document)].map(([code, entry]) => [code, entry.messages]));

/** The monitoring API's messages, from its error list; those a document other than the kit's lacks, from `fallback`. */
export const createErrorMessages = (document: Document, fallback?: Document): ErrorMessage =>
  createMessages(API_MESSAGES, [document, ...(fallback ? [fallback] : [])].map(messagesOfList));

/** The control API's messages, from its document's responses; those another document lacks, from `fallback`. */
export const createControlMessages = (document: Document, fallback?: Document): ControlMessage =>
  createMessages(CONTROL_MESSAGES, [document, ...(fallback ? [fallback] : [])].map(responseMessages));

/** A code of the document's list and one of its messages. */
type Named = { [C in keyof typeof API_MESSAGES]: readonly [C, (typeof API_MESSAGES)[C][number]] }[keyof typeof API_MESSAGES];
/** Fastify's and Node's own errors, by code: which error of the document's list each one is, in its words. */
const KNOWN_CODES: Readonly<Record<string, Named>> = {
  FST_ERR_CTP_INVALID_JSON_BODY: ['MALFORMED_JSON', 'notJson'],
  FST_ERR_CTP_EMPTY_JSON_BODY: ['MALFORMED_JSON', 'notJson'],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: ['MALFORMED_JSON', 'notJson'],
  FST_ERR_CTP_BODY_TOO_LARGE: ['PAYLOAD_TOO_LARGE', 'tooLarge'],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: ['UNSUPPORTED_MEDIA_TYPE', 'notJson'],
  FST_ERR_CTP_INVALID_TYPE: ['UNSUPPORTED_MEDIA_TYPE', 'notJson'],
  FST_ERR_BAD_URL: ['INVALID_PARAMETER', 'badUrl'],
  FST_ERR_MAX_PARAM_LENGTH: ['INVALID_PARAMETER', 'badUrl'],
  FST_ERR_ROUTE_MISSING_CONTENT_TYPE: ['INVALID_PARAMETER', 'queryContentType'],
  HPE_HEADER_OVERFLOW: ['HEADERS_TOO_LARGE', 'tooLarge'],
  ERR_HTTP_REQUEST_TIMEOUT: ['REQUEST_TIMEOUT', 'late'],
};

/** For a client error of Fastify's that the list above does not name yet: the code its status stands for. */
const BY_STATUS: Readonly<Record<number, ErrorCode>> = { 400: 'INVALID_PARAMETER', 413: 'PAYLOAD_TOO_LARGE', 415: 'UNSUPPORTED_MEDIA_TYPE' };

/** Anything thrown while serving a request as an error of the document's list: only a failure of the fake itself is INTERNAL_ERROR. */
export function toApiError(error: unknown, request: FastifyRequest, errors: ErrorFactory, messages: ErrorMessage): ApiError {
  if (error instanceof ApiError) return error;
  const fastifyError = error as Partial<FastifyError>;
  // The body stopped coming: Node cut the request at its timeout (the client got 408 on the
  // socket), or the client went away. Not a failure of the fake; the journal says what it was.
  if (fastifyError.code === 'ECONNRESET' && !request.raw.complete) return errors('REQUEST_TIMEOUT', messages('REQUEST_TIMEOUT', 'late'));
  // One of Fastify's errors: by its code, else (for codes not listed yet) by its 4xx status.
  const code = fastifyError.code?.startsWith('FST_') ? fastifyError.code : '';
  const named = code ? KNOWN_CODES[code] : undefined;
  if (named) return errors(named[0], messages(named[0], named[1], { limit: String(request.routeOptions.bodyLimit ?? request.server.initialConfig.bodyLimit) }));
  const byStatus = code && fastifyError.statusCode !== undefined ? BY_STATUS[fastifyError.statusCode] : undefined;
  if (byStatus) return errors(byStatus, String(fastifyError.message));
  // A JSON body that fails to parse without Fastify's code (e.g. a SyntaxError from a parser).
  if (error instanceof SyntaxError) return errors('MALFORMED_JSON', messages('MALFORMED_JSON', 'notJson'));
  return errors('INTERNAL_ERROR', messages('INTERNAL_ERROR', 'unexpected'));
}

/** Sends an ApiError as the document's Error body, with its extra headers. */
export function sendApiError(reply: FastifyReply, error: ApiError): FastifyReply {
  if (error.headers) void reply.headers(error.headers);
  return reply.code(error.status).type('application/json; charset=utf-8').send(error.text);
}

/** The server's error handler: a scripted answer is played, any other error answered in the document's shape (unexpected ones logged). */
export function setApiErrorHandler(app: FastifyInstance, scripted: ScriptedAnswers, errors: ErrorFactory, messages: ErrorMessage): void {
  // Not async: a refusal (a flood of 429s) is answered at once, without a promise that resolves to the reply.
  app.setErrorHandler((error, request, reply) => {
    if (error instanceof ScriptedAnswer) return scripted.play(reply, error);
    const apiError = toApiError(error, request, errors, messages);
    if (apiError.code === 'INTERNAL_ERROR') request.log.error({ err: error }, 'request failed');
    if (apiError.code === 'PAYLOAD_TOO_LARGE') return drainRefusedBody(request).then(() => sendApiError(reply, apiError));
    sendApiError(reply, apiError);
  });
}

/** Up to this much of a refused body is read and dropped before answering. */
export const DRAIN_LIMIT_BYTES = 8 * 1024 * 1024;
/** And for at most this long. */
const DRAIN_TIMEOUT_MS = 2000;

/**
 * Waits until the rest of a refused request body has been read and dropped, so that the 413
 * reaches the client: were unread data still arriving when Fastify closes the connection, the
 * close would become a reset, and a client still writing would see its write fail instead.
 */
export async function drainRefusedBody(request: FastifyRequest): Promise<void> {
  const raw = request.raw;
  if (raw.readableEnded || raw.destroyed || !(Number(raw.headers['content-length']) <= DRAIN_LIMIT_BYTES)) return;
  raw.resume();
  await finished(raw, { signal: AbortSignal.timeout(DRAIN_TIMEOUT_MS) }).catch(() => undefined);
}

/** What Node's HTTP parser reports about a request it refused (never logged whole: see below); `reason` is llhttp's fixed text, e.g. "Invalid header token". */
type ClientError = Error & { readonly code?: string; readonly reason?: string };

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
  const named = KNOWN_CODES[error.code ?? ''];
  if (named) return errors(named[0], messages(named[0], named[1], { limit: String(maxHeaderSize) }));
  const reason = typeof error.reason === 'string' && error.code?.startsWith('HPE_') ? error.reason.slice(0, 100) : undefined;
  return errors('MALFORMED_REQUEST', reason === undefined ? messages('MALFORMED_REQUEST', 'notHttp') : messages('MALFORMED_REQUEST', 'notHttpBecause', { reason }));
}

/**
 * Fastify's `clientErrorHandler`: answers a request Node's parser refused with the document's
 * Error body, then closes the connection. Only the code is logged: the error's `rawPacket` holds
 * the request's credentials (Fastify's own handler logs it at trace level).
 */
export function createClientErrorHandler(errors: ErrorFactory, messages: ErrorMessage) {
  // Fastify calls it bound to the app.
  return function clientError(this: FastifyInstance, error: ClientError, socket: Socket): void {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    const apiError = apiErrorOf(error, errors, messages);
    this.log.debug({ code: error.code, status: apiError.status }, 'refused a request the HTTP parser could not take');
    // Not into the middle of an answer already being written on this connection (Node's own check).
    const answering = (socket as Socket & { _httpMessage?: { headersSent?: boolean } | null })._httpMessage?.headersSent === true;
    if (!socket.writable || answering) socket.destroy();
    else answerAndClose(socket, apiError);
  };
}

/** The other requests Node answers itself: CONNECT (closed without a word) and an `Expect` other than 100-continue (an empty 417). */
export function installTransportRefusals(server: Server, errors: ErrorFactory, messages: ErrorMessage): void {
  server.on('connect', (_request: IncomingMessage, socket: Socket) => {
    answerAndClose(socket, errors('METHOD_NOT_ALLOWED', messages('METHOD_NOT_ALLOWED', 'connect')));
  });
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    const error = errors('EXPECTATION_FAILED', messages('EXPECTATION_FAILED', 'unsupported', { expect: JSON.stringify(String(request.headers.expect).slice(0, 100)) }));
    response.writeHead(error.status, { 'content-type': 'application/json; charset=utf-8', connection: 'close' }).end(JSON.stringify(error.toBody()));
  });
}

/** The request part Fastify names in a validation error. */
export type RequestPart = 'body' | 'headers' | 'params' | 'querystring';

/** Where a request part's problems are, and how a message names one of its fields. */
const PARTS: Record<RequestPart, readonly [ErrorDetail['location'], string]> = {
  params: ['path', 'path parameter'],
  querystring: ['query', 'query parameter'],
  headers: ['header', 'header'],
  body: ['body', 'body field'],
};

/** How many problems the message itself names; `details` lists more. */
const IN_MESSAGE = 3;

const unescape = (segment: string) => segment.replace(/~1/g, '/').replace(/~0/g, '~');

/** How a request part's problems are refused: 400 with the first problems named, their count, and at most the document's number of details. */
export type ValidationRefusal = (part: RequestPart, problems: Problems, checkedWhole: boolean) => ApiError;

/**
 * The refusal of a request whose parameters or body do not match the document: a parameter by its
 * name, a body field by its JSON pointer. `checkedWhole` is false for a body checked up to its first problem only.
 */
export function createValidationRefusal(errors: ErrorFactory, messages: ErrorMessage, valuesChecked: number): ValidationRefusal {
  return (part, { listed, count }, checkedWhole) => {
    const [location, label] = PARTS[part];
    const details = listed.map(({ pointer, problem }): ErrorDetail => ({ location, name: location === 'body' ? pointer : unescape(pointer.split('/')[1] ?? ''), problem }));
    const code = part === 'body' ? 'INVALID_BODY' : 'INVALID_PARAMETER';
    // One problem in words, e.g. `query parameter "limit" must match pattern "^[0-9]{1,9}$", not "5x"`.
    const shown = details.slice(0, IN_MESSAGE).map(({ name, problem }) => (location === 'body' && name === '/' ? `body ${problem}` : `${label} "${name}" ${problem}`)).join('; ');
    const message = !checkedWhole
      ? messages('INVALID_BODY', 'firstOnly', { shown, values: String(valuesChecked) })
      : count > IN_MESSAGE
        ? messages(code, 'problems', { shown, count: String(count), listed: String(details.length) })
        : shown || messages(code, 'invalid');
    return errors(code, message, { details });
  };
}


/**
 * The handler of requests no route takes: a routed path of the document with another method is
 * 405 with `Allow`, anything else 404 (the Host and Origin guard has judged the path already).
 */
export function createRouteNotFoundHandler(
  operations: readonly Operation[],
  errors: ErrorFactory,
  messages: ErrorMessage,
  // Paths where a newcomer looks first (`/`, the API's prefix): their 404 points to the docs, the inspector and the seeded logins.
  start?: { readonly paths: readonly string[]; readonly logins: () => string },
) {
  // `/node/api/users/{id}/auth-token` as a RegExp matching one non-empty segment per parameter.
  const escaped = (part: string) => part.replace(/[.*+?^$|()[\]\\]/g, '\\$&');
  const entries = operations.map((op) => ({ pattern: new RegExp(`^${op.path.split(/\{[^}/]+\}/).map(escaped).join('[^/]+')}$`), method: op.method.toUpperCase() }));

  return async function routeNotFound(request: FastifyRequest, _reply: FastifyReply): Promise<never> {
    const path = routedPath(request.url);
    const allowed = entries.filter((e) => e.pattern.test(path)).map((e) => e.method);
    if (allowed.length > 0) {
      const allow = [...new Set(allowed)].join(', ');
      throw errors('METHOD_NOT_ALLOWED', messages('METHOD_NOT_ALLOWED', 'notAllowed', { method: request.method, allow }), {
        headers: { allow },
      });
    }
    const shown = JSON.stringify(path.slice(0, 200));
    if (start?.paths.includes(path)) throw errors('ROUTE_NOT_FOUND', messages('ROUTE_NOT_FOUND', 'start', { path: shown, logins: start.logins() }));
    throw errors('ROUTE_NOT_FOUND', messages('ROUTE_NOT_FOUND', 'noOperation', { path: shown }));
  };
}
