import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../shared/clock.js';
import { textHead } from '../shared/text-head.js';
import type { JournalRecord, RequestJournal } from '../store/request-journal.js';
import { streamedPageHead, utf8Head } from './body.js';
import { routedPath } from './host-origin-guard.js';
import { requestLine } from './logger.js';
import type { ResolvedFakeOptions, RuntimeConfig } from './options.js';
import { drawLatency, preferredLatency } from './route-checks.js';

/** Whatever Fastify pipes to the client (a streamed page, a docs asset) rather than writes at once. */
export const isStreamed = (payload: unknown): boolean => typeof (payload as { pipe?: unknown } | null)?.pipe === 'function';

/** What is done with an answer before it is sent, once its latency has passed. */
export type AnswerStep = (request: FastifyRequest, reply: FastifyReply, payload: unknown) => void;

declare module 'fastify' {
  interface FastifyRequest {
    /** performance.now() when the request came in: the journal's duration starts here. */
    receivedAt: number;
  }
}

/** What the answer hook is made of. */
export interface AnswerHookParts {
  /** The monitoring API's paths start with this: an answer for a path under it that no route takes is the API's. */
  readonly apiPrefix: string;
  readonly options: ResolvedFakeOptions;
  readonly config: RuntimeConfig;
  readonly journal: RequestJournal;
}

/** Whether a path no route takes is under the API's prefix (however its target was spelled). */
function underPrefix(url: string, prefix: string): boolean {
  const path = routedPath(url);
  return path === prefix || path.startsWith(`${prefix}/`);
}

/**
 * The server's `onSend` hook, for every answer (the API's, the control API's, the docs',
 * errors and paths no route takes): the latency of an answer of the monitoring API (a
 * `Prefer: latency=` of the request wins over the configured one), then its record in the
 * journal, then the line of a client that left meanwhile.
 * Latency applies to the monitoring API only, and comes first so that the journal's duration
 * and the request line's time include it; the journal's runs from the request's arrival, which
 * the first `onRequest` hook notes (the line's is Fastify's own `elapsedTime`).
 */
export function addAnswerHook(app: FastifyInstance, parts: AnswerHookParts): void {
  const { apiPrefix, options, config, journal } = parts;
  const keep = journal.capacity > 0 ? createJournalKeeper(journal, options.clock) : undefined;
  // A client that left while its answer waited (an added latency, a long query) gets no answer,
  // and Fastify no 'finish' to log it by (logger.ts): its line is written here.
  const leftEarly: AnswerStep = (request, reply) => {
    if (reply.raw.destroyed) requestLine(request, reply, true);
  };
  app.decorateRequest('receivedAt', 0);
  app.addHook('onRequest', function arrival(request, _reply, done) {
    request.receivedAt = performance.now();
    done();
  });
  app.addHook('onSend', function answer(request, reply, payload, done) {
    // A route's own config (Fastify builds `routeOptions` when asked: only for routed requests).
    const route = request.is404 ? undefined : request.routeOptions.config;
    const ofTheApi = route === undefined ? underPrefix(request.url, apiPrefix) : route.surface === 'api';
    const operationId = route?.operationId;
    const finish = () => {
      if (ofTheApi) keep?.(request, reply, payload, operationId);
      leftEarly(request, reply, payload);
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

type KeptBody = Pick<JournalRecord, 'body' | 'bodyCut'>;
const NO_BODY: KeptBody = { body: undefined, bodyCut: undefined };

/**
 * An answer's body: the payload itself (no copy, no parse), or a copy of its head when
 * it is longer than `perBody`; of a streamed page, the head of its text, made apart (the body is
 * not written yet).
 */
const bodyKeeper = (perBody: number) => (payload: unknown): KeptBody => {
  if (typeof payload === 'string') return payload.length <= perBody ? { body: payload, bodyCut: undefined } : { body: textHead(payload, perBody), bodyCut: 'head' };
  if (Buffer.isBuffer(payload)) return payload.length <= perBody ? { body: payload, bodyCut: undefined } : { body: utf8Head(payload, perBody), bodyCut: 'head' };
  const head = streamedPageHead(payload, perBody);
  return head === undefined ? NO_BODY : { body: head.bytes, bodyCut: head.whole ? undefined : 'head' };
};

/** Whether a payload is text or bytes that the journal keeps whole (`perBody` or shorter). */
const shortText = (perBody: number) => (payload: unknown): boolean => (typeof payload === 'string' || Buffer.isBuffer(payload)) && payload.length <= perBody;

/** Keeps one answer of the monitoring API in the journal, `operationId` that of its route (undefined for a path no route takes). */
export type JournalKeeper = (request: FastifyRequest, reply: FastifyReply, payload: unknown, operationId: string | undefined) => void;

/**
 * Keeps each answer of the monitoring API (its routes, and paths under its prefix no route
 * takes) in the journal: the answer hook (answer-hook.ts) calls it once the answer's latency has
 * passed, so that the duration includes it. It costs one record a request: fields that the
 * request and reply already hold and the answer's body, error answers' too, by reference when
 * it is short (masked when read), else a copy of its head.
 */
export function createJournalKeeper(journal: RequestJournal, clock: Clock): JournalKeeper {
  const { perBody } = journal.bodyLimits;
  const bodyOf = bodyKeeper(perBody);
  const isShortText = shortText(perBody);
  return function keepInJournal(request, reply, payload, operationId) {
    const { caller } = request;
    const status = reply.statusCode;
    // A body short enough to keep whole (the usual answer) is kept without making a KeptBody.
    const whole = isShortText(payload);
    const { body, bodyCut } = whole ? NO_BODY : bodyOf(payload);
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
      durationMs: performance.now() - request.receivedAt,
      body: whole ? (payload as string | Buffer) : body,
      bodyCut,
    });
  };
}
