// Applies checks to exchanges and keeps the outcomes, with failures made ready to report.
import { inconclusive, isInconclusive, apply, noAnswer } from '../checks/check.js';
import { transportError } from '../checks/response-checks.js';
import type { Applied, Exchange, Inconclusive, CheckContext, Failure, ReportedFailure } from '../types.js';
import { responseChecks, titleOf, type CaseCheckName, type OutcomeCheckName } from '../checks/registry.js';
import { toCurl } from '../curl.js';
import type { Secrets } from '../../shared/redaction/secret-values.js';
import { createCredentialsSeen } from '../client/credentials.js';
import type { Outcome } from './results.js';

// Without an answer only transport-error judges. A body the runner did not read whole or parse (its
// own bounds, no finding) leaves the status judged and the body not: inconclusive, not `ok`.
export function unjudgeable(exchange: Exchange, check: Applied): Inconclusive | undefined {
  if (!exchange.response) return check.name === transportError.name ? undefined : inconclusive(noAnswer(exchange));
  if (exchange.error && !check.judgesUnreadBody) return inconclusive(`the body was not judged: ${exchange.error}`);
  return undefined;
}

const BODY_LIMIT = 600;

export interface Evaluation {
  /** The checks of the step, each with its facts (`apply(check, facts)`). */
  readonly checks?: readonly Applied[];
  /**
   * Report the checks under another operation (a read-back of an update, on the update), and
   * name (a case step: `case/<name>` on the case's operation).
   */
  readonly reportAs?: { readonly operationId: string; readonly check?: CaseCheckName };
  /** The requests that led to the answer, in order, this one last: the finding shows them as numbered curl steps (a shrunk sequence). */
  readonly steps?: readonly Exchange[];
  /** Values of the answer that are credentials (those a case step captures as one): masked from then on, this answer's findings included. */
  readonly credentials?: (exchange: Exchange) => readonly string[];
}

export type Recorder = ReturnType<typeof createRecorder>;

export function createRecorder(base: Omit<CheckContext, 'credentials'>, secrets: Secrets) {
  const onEvery = responseChecks.map((check) => apply(check));
  const outcomes = new Map<string, Outcome>();
  const credentials = createCredentialsSeen(base.spec);
  let group = 'responses';
  const outcome = (operationId: string, check: string, title: string): Outcome => {
    const key = `${operationId}\u0000${check}`;
    let o = outcomes.get(key);
    if (!o) {
      o = { group, operationId, check, title, exchanges: 0, failures: [] };
      outcomes.set(key, o);
    }
    return o;
  };
  // Masking a body of megabytes once per exchange, not once per finding on it.
  const bodies = new WeakMap<Exchange, string>();
  const bodyOf = (exchange: Exchange, text: string): string => {
    const trimmed = bodies.get(exchange) ?? secrets.shownHead(text, BODY_LIMIT);
    bodies.set(exchange, trimmed);
    return trimmed;
  };
  const curlOf = (exchange: Exchange): string => toCurl(secrets.maskRequest(exchange.request));
  // A step's answer beside its curl line, so that a repro reads as what was sent and what came back.
  const stepsOf = (steps: readonly Exchange[]): string =>
    steps.map((step, i) => `${i + 1}. ${curlOf(step)}\n   # answered ${step.response?.status ?? noAnswer(step)}`).join('\n');
  const report = (exchange: Exchange, failure: Failure, steps?: readonly Exchange[]): ReportedFailure => ({
    ...failure,
    key: exchange.key,
    curl: steps && steps.length > 0 ? stepsOf(steps) : curlOf(exchange),
    actual: exchange.response
      ? { status: exchange.response.status, body: bodyOf(exchange, exchange.response.body) }
      : { error: exchange.error ?? 'no answer' },
  });

  return {
    setGroup(name: string): void {
      group = name;
    },
    /** Runs the response checks (unless `withResponseChecks` is false) and the step's own on an exchange. */
    evaluate(exchange: Exchange, evaluation: Evaluation, withResponseChecks = true): Failure[] {
      for (const value of evaluation.credentials?.(exchange) ?? []) secrets.addIssued(value);
      credentials.learn(exchange);
      const context: CheckContext = { ...base, credentials: credentials.seen };
      const found: Failure[] = [];
      const run = (check: Applied, renamed: Evaluation['reportAs'], steps?: Evaluation['steps']): void => {
        const judgement = unjudgeable(exchange, check) ?? check.judge(exchange, context);
        const o = outcome(renamed?.operationId ?? exchange.operationId, renamed?.check ?? check.name, check.title);
        o.exchanges += 1;
        if (isInconclusive(judgement)) {
          o.inconclusive ??= `${exchange.operationId === o.operationId ? '' : `${exchange.operationId} `}${judgement.inconclusive} (${exchange.key})`;
          return;
        }
        const failures = judgement.map((f) => ({ ...f, operationId: o.operationId, check: o.check }));
        for (const f of failures) o.failures.push(report(exchange, f, steps));
        found.push(...failures);
      };
      if (withResponseChecks) for (const check of onEvery) if (!check.operations || check.operations.includes(exchange.operationId)) run(check, undefined);
      for (const check of evaluation.checks ?? []) run(check, evaluation.reportAs, evaluation.steps);
      return found;
    },
    /** A check did not run on an operation, for a stated reason (read-only target, no low user…). */
    skip(operationId: string, check: OutcomeCheckName, reason: string): void {
      outcome(operationId, check, titleOf(check)).skipped ??= reason;
    },
    /** A check, or part of it, could not run or judge (a step captured nothing, no block came…): never `ok`. */
    inconclusive(operationId: string, check: OutcomeCheckName, reason: string): void {
      outcome(operationId, check, titleOf(check)).inconclusive ??= reason;
    },
    outcomes: (): Outcome[] => [...outcomes.values()],
  };
}
