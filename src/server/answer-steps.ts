import type { FastifyInstance } from 'fastify';
import type { RequestJournal } from '../store/request-journal.js';
import { addAnswerHook, type AnswerStep } from './answer-hook.js';
import type { EarlyAnswers } from './early-answers.js';
import { createJournalKeeper } from './journal/journal-keeper.js';
import { drawLatency } from './latency.js';
import type { Logging } from './logging.js';
import type { ResolvedFakeOptions } from './options.js';
import { preferredLatency } from './prefer.js';
import type { RuntimeConfig } from './runtime-config.js';

/** What the fake's answer steps are made of. */
export interface AnswerStepParts {
  /** The monitoring API's paths start with this; latency applies to it only. */
  readonly apiPrefix: string;
  readonly options: ResolvedFakeOptions;
  readonly config: RuntimeConfig;
  readonly journal: RequestJournal;
  readonly logging: Logging;
  readonly earlyAnswers: EarlyAnswers;
}

/**
 * Every answer (API, control, docs, errors): the API's latency (a `Prefer: latency=` of the
 * request wins over the configured one), then its journal record and the request line.
 */
export function addAnswerSteps(app: FastifyInstance, parts: AnswerStepParts): void {
  const { apiPrefix, options, config, journal, logging, earlyAnswers } = parts;
  const afterLatency: AnswerStep[] = [...(logging.requestLine ? [logging.requestLine] : []), earlyAnswers.step];
  addAnswerHook(app, {
    apiPrefix,
    latencyMs: (operationId, request) => preferredLatency.get(request) ?? drawLatency(config.latencyOf(operationId), options.random),
    sleep: options.sleep,
    ...(journal.capacity > 0 ? { keep: createJournalKeeper(journal, options.clock) } : {}),
    afterLatency,
  });
}
