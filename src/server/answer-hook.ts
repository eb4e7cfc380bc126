import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { RequestJournal } from '../store/request-journal.js';
import { createJournalKeeper } from './journal/journal-keeper.js';
import { announcesBody } from './json-body.js';
import { drawLatency, type RuntimeConfig } from './runtime-config.js';
import { requestLine } from './logger.js';
import type { ResolvedFakeOptions } from './options.js';
import { preferredLatency } from './chosen-answers.js';
import { routedPath } from './request-path.js';

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

/** Connections whose request was answered before its body had all arrived. */
export interface EarlyAnswers {
  /** The answer hook's step that notes them. */
  readonly step: AnswerStep;
  /** Whether the connection's request was answered and its body is still arriving. */
  answered(socket: Socket): boolean;
}

/**
 * The fake answers some requests without reading their body: a 404, 401 or 403 for a request
 * that sends one. Node then goes on reading and dropping that body, to keep the connection. If
 * the body never ends, Node's request timeout reports the request as too slow; answered with a
 * 408, the connection would carry a second answer to one request, which a keep-alive client
 * takes as the answer to its next. The transport's error handler closes such a connection
 * instead (transport-errors.ts).
 */
export function createEarlyAnswers(): EarlyAnswers {
  const early = new WeakSet<Socket>();
  return {
    step(request) {
      const raw = request.raw;
      // A request answered in the turn it came in is not yet `complete` even without a body:
      // Node marks it so after the handler has run. Most requests have none.
      if (raw.complete || !announcesBody(raw)) return;
      const socket = raw.socket;
      early.add(socket);
      raw.once('end', () => early.delete(socket));
    },
    answered: (socket) => early.has(socket),
  };
}

/** What the answer hook is made of. */
export interface AnswerHookParts {
  /** The monitoring API's paths start with this: an answer for a path under it that no route takes is the API's. */
  readonly apiPrefix: string;
  readonly options: ResolvedFakeOptions;
  readonly config: RuntimeConfig;
  readonly journal: RequestJournal;
  readonly earlyAnswers: EarlyAnswers;
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
 * journal, then the line of a client that left meanwhile and the note of an early answer.
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
  const afterLatency: AnswerStep[] = [leftEarly, parts.earlyAnswers.step];
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
      for (const step of afterLatency) step(request, reply, payload);
      done(null, payload);
    };
    const ms = ofTheApi ? (preferredLatency.get(request) ?? drawLatency(config.latencyOf(operationId), options.random)) : 0;
    if (ms > 0) options.sleep(ms).then(finish, (error: unknown) => done(error as Error));
    else finish();
  });
}
