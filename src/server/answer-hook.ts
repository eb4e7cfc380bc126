import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../shared/clock.js';
import { textHead } from '../shared/text-head.js';
import type { JournalRecord, RequestJournal } from '../store/request-journal.js';
import { streamedPageHead, utf8Head } from './body.js';
import { isUnder, routedPath } from './host-origin-guard.js';
import { requestLine } from './logger.js';
import type { ResolvedFakeOptions, RuntimeConfig } from './options.js';
import { drawLatency, preferredLatency } from './route-checks.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** performance.now() when the request came in: the journal's duration starts here. */
    receivedAt: number;
  }
}

/**
 * The server's `onSend` hook, for every answer: the latency of an answer of the monitoring API
 * (a `Prefer: latency=` wins over the configured one), then its record in the journal, then the
 * line of a client that left meanwhile. Latency comes first, so that the journal's duration
 * (from the first `onRequest` hook) and the request line's time include it.
 */
export function addAnswerHook(
  app: FastifyInstance,
  // apiPrefix: an answer for a path under it that no route takes is the API's.
  { apiPrefix, options, config, journal }: { apiPrefix: string; options: ResolvedFakeOptions; config: RuntimeConfig; journal: RequestJournal },
): void {
  app.decorateRequest('receivedAt', 0);
  app.addHook('onRequest', function arrival(request, _reply, done) {
    request.receivedAt = performance.now();
    done();
  });
  app.addHook('onSend', function answer(request, reply, payload, done) {
    // A route's own config (Fastify builds `routeOptions` when asked: only for routed requests).
    const route = request.is404 ? undefined : request.routeOptions.config;
    // A path no route takes is the API's when it is under its prefix (however its target was spelled).
    const ofTheApi = route === undefined ? isUnder(routedPath(request.url), apiPrefix) : route.surface === 'api';
    const operationId = route?.operationId;
    const finish = () => {
      if (ofTheApi && journal.capacity > 0) keepInJournal(journal, options.clock, request, reply, payload, operationId);
      // A client that left while its answer waited gets no answer, and Fastify no 'finish' to log it by (logger.ts).
      if (reply.raw.destroyed) requestLine(request, reply, true);
      done(null, payload);
    };
    const { latencyMs, operationLatencyMs } = config.current;
    const ms = ofTheApi ? (preferredLatency.get(request) ?? drawLatency((operationId === undefined ? undefined : operationLatencyMs?.[operationId]) ?? latencyMs, options.random)) : 0;
    if (ms > 0) options.sleep(ms).then(finish, (error: unknown) => done(error as Error));
    else finish();
  });
}

/** The longest URL and Origin kept in full: a request's head may be 16 KiB, a journal up to `x-max-journal-size` requests. */
export const KEPT_TEXT_CHARS = 2048;

/** A text, or a copy of its head (cut between characters) and "…" when it is longer than `max`. */
const headOf = (text: string, max: number): string => (text.length <= max ? text : `${textHead(text, max)}…`);

/** An answer's body: the payload itself (no copy) when it is `perBody` or shorter, else a copy of its head; of a streamed page, the head of its text. */
function keptBody(payload: unknown, perBody: number): Pick<JournalRecord, 'body' | 'bodyCut'> {
  if (typeof payload === 'string') return payload.length <= perBody ? { body: payload, bodyCut: undefined } : { body: textHead(payload, perBody), bodyCut: 'head' };
  if (Buffer.isBuffer(payload)) return payload.length <= perBody ? { body: payload, bodyCut: undefined } : { body: utf8Head(payload, perBody), bodyCut: 'head' };
  const head = streamedPageHead(payload, perBody);
  return { body: head?.bytes, bodyCut: head === undefined || head.whole ? undefined : 'head' };
}

/**
 * Keeps each answer of the monitoring API in the journal, once its latency has passed: one record
 * of fields the request and reply already hold, and the answer's body (masked when read).
 */
function keepInJournal(journal: RequestJournal, clock: Clock, request: FastifyRequest, reply: FastifyReply, payload: unknown, operationId: string | undefined): void {
  const { caller } = request;
  const { body, bodyCut } = keptBody(payload, journal.bodyLimits.perBody);
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
    status: reply.statusCode,
    durationMs: performance.now() - request.receivedAt,
    body,
    bodyCut,
  });
}
