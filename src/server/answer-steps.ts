import type { FastifyInstance } from 'fastify';
import type { RequestJournal } from '../store/request-journal.js';
import { addAnswerHook, type AnswerStep } from './answer-hook.js';
import type { EarlyAnswers } from './early-answers.js';
import { createJournalKeeper } from './journal/journal-keeper.js';
import { drawLatency } from './latency.js';
import type { ResolvedFakeOptions } from './options.js';
import { requestLine } from './logger.js';
import { preferredLatency } from './prefer.js';
import type { RuntimeConfig } from './runtime-config.js';

/** What the fake's answer steps are made of. */
export interface AnswerStepParts {
  /** The monitoring API's paths start with this; latency applies to it only. */
  readonly apiPrefix: string;
  readonly options: ResolvedFakeOptions;
  readonly config: RuntimeConfig;
  readonly journal: RequestJournal;
  readonly earlyAnswers: EarlyAnswers;
}

/**
 * Every answer (API, control, docs, errors): the API's latency (a `Prefer: latency=` of the
 * request wins over the configured one), then its journal record.
 */
export function addAnswerSteps(app: FastifyInstance, parts: AnswerStepParts): void {
  const { apiPrefix, options, config, journal, earlyAnswers } = parts;
  // A client that left while its answer waited (an added latency, a long query) gets no answer,
  // and Fastify no 'finish' to log it by: its line is written here.
  const leftEarly: AnswerStep = (request, reply) => {
    if (reply.raw.destroyed) requestLine(request, reply, true);
  };
  const afterLatency: AnswerStep[] = [leftEarly, earlyAnswers.step];
  addAnswerHook(app, {
    apiPrefix,
    latencyMs: (operationId, request) => preferredLatency.get(request) ?? drawLatency(config.latencyOf(operationId), options.random),
    sleep: options.sleep,
    ...(journal.capacity > 0 ? { keep: createJournalKeeper(journal, options.clock) } : {}),
    afterLatency,
  });
}
