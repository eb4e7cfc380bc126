import { isUtf8 } from 'node:buffer';
import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ApiError, ErrorFactory } from '../errors.js';
import type { Operation } from '../spec/index.js';
import type { ErrorMessage } from './error-answers.js';
import { headersSentWith } from './route-checks.js';

// Bodies in and out: the JSON a request sends, and the JSON text of an answer (a long page as a stream).

/** Headers that make Fastify read, size-check and type-check a body. */
const BODY_HEADERS = ['content-type', 'content-length', 'transfer-encoding'] as const;
/**
 * JSON is the only body the API takes, parsed by Fastify's own parser (which refuses prototype
 * poisoning). A body is read only for operations that document one, so the others answer what
 * the document promises instead of a 400, 413 or 415 it does not list. An empty JSON body is no
 * body (some clients always send the Content-Type).
 */
export function installBodyParsers(app: FastifyInstance, operations: readonly Operation[], errors: ErrorFactory, messages: ErrorMessage): void {
  app.addHook('onRequest', function unreadBody(request, _reply, done) {
    const headers = request.raw.headers;
    if (headers['content-type'] === undefined && headers['content-length'] === undefined && headers['transfer-encoding'] === undefined) return done();
    // Keeps Fastify from reading a body the request's operation does not take (its route has no body schema).
    // QUERY must name a Content-Type (RFC 10008); Fastify answers its absence itself.
    if ((request.is404 || request.routeOptions.schema?.body === undefined) && request.method !== 'QUERY') {
      for (const header of BODY_HEADERS) delete headers[header];
      request.raw.resume();
    }
    done();
  });
  // A content-coded body is refused: the fake decodes none, so 415 with the document's headers (RFC 9110 15.5.16).
  const codedHeaders = headersSentWith(operations, 'coded');
  const codedBody = (request: FastifyRequest): ApiError | undefined => {
    const header = request.headers['content-encoding'];
    if (header === undefined || header.split(',').every((coding) => ['', 'identity'].includes(coding.trim().toLowerCase()))) return undefined;
    return errors('UNSUPPORTED_MEDIA_TYPE', messages('UNSUPPORTED_MEDIA_TYPE', 'coded', { coding: JSON.stringify(header.slice(0, 100)) }), { headers: codedHeaders });
  };
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  // As bytes: decoding to a string first would turn invalid UTF-8 into U+FFFD silently.
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    const coded = codedBody(request);
    if (coded) return done(coded, undefined);
    const bytes = body as Buffer;
    if (bytes.length === 0) return done(null, undefined);
    if (!isUtf8(bytes)) return done(errors('MALFORMED_JSON', messages('MALFORMED_JSON', 'notUtf8')), undefined);
    parseJson(request, bytes.toString('utf8'), done);
  });
  app.addContentTypeParser('*', (request, _payload, done) => {
    const coded = codedBody(request);
    if (coded) return done(coded, undefined);
    const type = request.headers['content-type'];
    const message =
      type === undefined
        ? messages('UNSUPPORTED_MEDIA_TYPE', 'missing')
        : messages('UNSUPPORTED_MEDIA_TYPE', 'other', { type: JSON.stringify(String(type).slice(0, 100)) });
    done(errors('UNSUPPORTED_MEDIA_TYPE', message), undefined);
  });
}

const isDeepFrozen = (value: unknown): boolean =>
  value === null || typeof value !== 'object' || (Object.isFrozen(value) && Object.values(value).every(isDeepFrozen));
/** The texts of deep-frozen objects answered (a user's record), which can never change: written once. */
const texts = new WeakMap<object, Buffer>();

/** The JSON text of an answer's body, as UTF-8 bytes. */
export function jsonText(body: unknown): Buffer {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return Buffer.from(JSON.stringify(body) ?? '');
  let text = texts.get(body);
  if (text === undefined) {
    text = Buffer.from(JSON.stringify(body));
    if (isDeepFrozen(body)) texts.set(body, text);
  }
  return text;
}

/** How many bytes a chunk of a streamed page holds at least (the last may hold less): about a hundred records. */
export const PAGE_CHUNK_BYTES = 64 * 1024;

/** Part of an array's JSON text, the items from `from` on until it holds `minBytes`; `next` is past `items.length` once the text is whole. */
function arrayTextPart(items: readonly unknown[], from: number, minBytes: number): { readonly bytes: Buffer; readonly next: number } {
  let text = from === 0 ? '[' : '';
  let i = from;
  for (; i < items.length && (i === from || text.length < minBytes); i++) text += `${i > 0 ? ',' : ''}${JSON.stringify(items[i]) ?? 'null'}`;
  if (i === items.length) {
    text += ']';
    i++;
  }
  return { bytes: Buffer.from(text), next: i };
}

/** The pages being streamed, for the journal's head of their text. */
const streamed = new WeakMap<object, readonly unknown[]>();

/**
 * A long page's JSON text as a stream, made a chunk at a time as the client reads, each on a later
 * turn of the event loop: other requests are served between chunks, and a slow reader holds a chunk
 * or two, not the page. The items must not change (the logs hand out frozen records).
 */
export function pageStream(items: readonly unknown[], chunkBytes = PAGE_CHUNK_BYTES): Readable {
  const page = items.slice();
  let from = 0;
  let timer: NodeJS.Immediate | undefined;
  const stream: Readable = new Readable({
    highWaterMark: chunkBytes,
    read() {
      timer ??= setImmediate(() => {
        timer = undefined;
        const part = arrayTextPart(page, from, chunkBytes);
        from = part.next;
        stream.push(part.bytes);
        if (from > page.length) stream.push(null);
      });
    },
    destroy(error, done) {
      if (timer !== undefined) clearImmediate(timer);
      done(error);
    },
  });
  streamed.set(stream, page);
  return stream;
}

/** A copy of the head of UTF-8 `bytes`, at most `max` bytes, cut before a character that would not fit whole. */
export function utf8Head(bytes: Buffer, max: number): Buffer {
  if (bytes.length <= max) return Buffer.from(bytes);
  let end = max;
  while (end > 0 && end > max - 3 && (bytes[end]! & 0xc0) === 0x80) end--;
  if ((bytes[end]! & 0xc0) === 0x80) end = max; // not UTF-8 there: cut at the count
  return Buffer.from(bytes.subarray(0, end));
}

/** The head of a streamed page's text, at most `maxBytes`, and whether it is the whole text; undefined for any other payload. */
export function streamedPageHead(payload: unknown, maxBytes: number): { readonly bytes: Buffer; readonly whole: boolean } | undefined {
  const page = payload !== null && typeof payload === 'object' ? streamed.get(payload) : undefined;
  if (page === undefined) return undefined;
  const { bytes, next } = arrayTextPart(page, 0, maxBytes + 1);
  return next > page.length && bytes.length <= maxBytes ? { bytes, whole: true } : { bytes: utf8Head(bytes, maxBytes), whole: false };
}
