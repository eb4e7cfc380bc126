import type { FastifyInstance, FastifyReply, FastifyRequest, onSendHookHandler } from 'fastify';
import type { Clock } from '../../shared/clock.js';
import { JOURNAL_BODY_LIMITS, type JournalRecord, type RequestJournal } from '../../store/request-journal.js';
import { ofTheApi } from '../latency-hook.js';
import { streamedPageHead } from '../page-stream.js';
import { textHead } from '../text-head.js';
import { utf8Head } from '../utf8-head.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** performance.now() when the request was routed (Fastify times replies only when it logs). */
    journalStart: number;
  }
}

/** The longest URL and Origin kept in full: a request's head may be 16 KiB, a journal 100,000 requests. */
export const KEPT_TEXT_CHARS = 2048;

/** A text, or a copy of its head (cut between characters) and "…" when it is longer than `max`. */
const headOf = (text: string, max: number): string => (text.length <= max ? text : `${textHead(text, max)}…`);

type KeptBody = Pick<JournalRecord, 'body' | 'bodyCut'>;
const NO_BODY: KeptBody = { body: undefined, bodyCut: undefined };

/**
 * A successful answer's body: the payload itself (no copy, no parse), or a copy of its head when
 * it is long; of a streamed page, the head of its text, made apart (the body is not written yet).
 */
function bodyOf(payload: unknown): KeptBody {
  const { perBody } = JOURNAL_BODY_LIMITS;
  if (typeof payload === 'string') return payload.length <= perBody ? { body: payload, bodyCut: undefined } : { body: textHead(payload, perBody), bodyCut: 'head' };
  if (Buffer.isBuffer(payload)) return payload.length <= perBody ? { body: payload, bodyCut: undefined } : { body: utf8Head(payload, perBody), bodyCut: 'head' };
  const head = streamedPageHead(payload, perBody);
  return head === undefined ? NO_BODY : { body: head.bytes, bodyCut: head.whole ? undefined : 'head' };
}

/**
 * Keeps each answer of the monitoring API (its routes, and paths under `prefix` no route
 * takes) in the journal; add it before the routes and after the latency hook, so that the
 * duration includes the added latency. It costs one record a request: fields that the request
 * and reply already hold, the body text of error answers (the document's Error body, read when
 * asked) and the body of successful answers, by reference (masked when read). A route's
 * operationId is taken when the route is added, so that no request builds Fastify's
 * `routeOptions` object for it.
 */
export function addJournalHooks(app: FastifyInstance, journal: RequestJournal, clock: Clock, prefix: string): void {
  const keep = (request: FastifyRequest, reply: FastifyReply, payload: unknown, operationId: string | undefined) => {
    const { caller } = request;
    const status = reply.statusCode;
    const { body, bodyCut } = status < 400 ? bodyOf(payload) : NO_BODY;
    journal.add({
      id: journal.nextId(),
      time: clock.now(),
      method: request.method,
      rawUrl: headOf(request.url, KEPT_TEXT_CHARS),
      operationId,
      authMethod: caller?.via,
      userId: caller?.user.id,
      login: caller?.user.login,
      origin: request.headers.origin === undefined ? undefined : headOf(request.headers.origin, KEPT_TEXT_CHARS),
      status,
      // 0 when an earlier onRequest hook answered before the clock was started.
      durationMs: request.journalStart > 0 ? performance.now() - request.journalStart : 0,
      errorText: status >= 400 && typeof payload === 'string' ? payload : undefined,
      body,
      bodyCut,
    });
  };

  app.decorateRequest('journalStart', 0);
  app.addHook('onRequest', function startJournalClock(request, _reply, done) {
    request.journalStart = performance.now();
    done();
  });
  // The monitoring API's routes: their own onSend hook, which runs after the server's (latency).
  app.addHook('onRoute', (route) => {
    if (route.config?.surface !== 'api') return;
    const operationId = route.config.operationId;
    const keepAnswer: onSendHookHandler<unknown> = function keepInJournal(request, reply, payload, done) {
      keep(request, reply, payload, operationId);
      done(null, payload);
    };
    route.onSend = [...(route.onSend === undefined ? [] : [route.onSend].flat()), keepAnswer] as typeof route.onSend;
  });
  // Paths under the API's prefix that no route takes (404, 405).
  app.addHook('onSend', function keepUnrouted(request, reply, payload, done) {
    if (request.is404 && ofTheApi(request, prefix)) keep(request, reply, payload, undefined);
    done(null, payload);
  });
}
