import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ErrorFactory } from '../errors.js';
import type { ErrorMessage } from './error-messages.js';
import type { CodedBodyRefusal } from './content-coding.js';

/** Whether the request's operation takes a body at all (its route has a body schema). */
const takesBody = (request: FastifyRequest) => !request.is404 && request.routeOptions.schema?.body !== undefined;

/** Headers that make Fastify read, size-check and type-check a body. */
const BODY_HEADERS = ['content-type', 'content-length', 'transfer-encoding'] as const;

/** Marks a request whose body headers the step below removed. */
const BODY_LEFT_UNREAD = Symbol('body left unread');
type MarkedMessage = IncomingMessage & { [BODY_LEFT_UNREAD]?: true };

/**
 * Whether a request's head announced a body (RFC 9112 §6.3: a request without Content-Length or
 * Transfer-Encoding has none), also when the step below removed those headers.
 */
export const announcesBody = (raw: IncomingMessage): boolean => {
  const headers = raw.headers;
  return (headers['content-length'] !== undefined && headers['content-length'] !== '0') || headers['transfer-encoding'] !== undefined || (raw as MarkedMessage)[BODY_LEFT_UNREAD] === true;
};

/** Keeps Fastify from reading a body the request's operation does not take (see installBodyParsers). */
function leaveBodyUnread(request: FastifyRequest): void {
  const headers = request.raw.headers;
  if (headers['content-type'] === undefined && headers['content-length'] === undefined && headers['transfer-encoding'] === undefined) return;
  // QUERY must name a Content-Type (RFC 10008); Fastify answers its absence itself.
  if (!takesBody(request) && request.method !== 'QUERY') {
    for (const header of BODY_HEADERS) delete headers[header];
    (request.raw as MarkedMessage)[BODY_LEFT_UNREAD] = true;
    request.raw.resume();
  }
}

/**
 * JSON is the only body the API takes. Fastify's own JSON parser (which refuses `__proto__`
 * and `constructor` poisoning) does the parsing. A body is read only for operations that
 * document one: elsewhere (unknown paths, DELETE, bodiless POST) it is drained and its
 * headers dropped before Fastify looks at them, so those answer what the document promises
 * instead of a 400, 413 or 415 it does not list. An empty JSON body is no body, for clients
 * that always send the Content-Type header. A body that is not UTF-8 is malformed JSON. A
 * content-coded body is refused for its coding before its Content-Type is looked at.
 */
export function installBodyParsers(app: FastifyInstance, errors: ErrorFactory, messages: ErrorMessage, codedBodyRefusal: CodedBodyRefusal): void {
  app.addHook('onRequest', function unreadBody(request, _reply, done) {
    leaveBodyUnread(request);
    done();
  });
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  // As bytes: decoding to a string first would turn invalid UTF-8 into U+FFFD silently.
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const refusal = codedBodyRefusal(request);
    if (refusal !== undefined) {
      done(refusal, undefined);
      return;
    }
    const bytes = body as Buffer;
    if (bytes.length === 0) {
      done(null, undefined);
      return;
    }
    if (!isUtf8(bytes)) {
      done(errors('MALFORMED_JSON', messages('MALFORMED_JSON', 'notUtf8')), undefined);
      return;
    }
    parseJson(request, bytes.toString('utf8'), done);
  });
  app.addContentTypeParser('*', (request, _payload, done) => {
    // A coded body is refused for its coding whatever its Content-Type says: the type is that of
    // the decoded body (RFC 9110 8.4), which a server that decodes no coding never reads.
    const refusal = codedBodyRefusal(request);
    if (refusal !== undefined) {
      done(refusal, undefined);
      return;
    }
    const type = request.headers['content-type'];
    const message =
      type === undefined
        ? messages('UNSUPPORTED_MEDIA_TYPE', 'missing')
        : messages('UNSUPPORTED_MEDIA_TYPE', 'other', { type: JSON.stringify(String(type).slice(0, 100)) });
    done(errors('UNSUPPORTED_MEDIA_TYPE', message), undefined);
  });
}
