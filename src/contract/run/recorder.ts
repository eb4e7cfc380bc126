// Applies checks to exchanges and keeps the outcomes, with failures made ready to report.
import { inconclusive, isInconclusive } from '../checks/failure.js';
import { getCheck, responseChecks } from '../checks/registry.js';
import { transportError } from '../checks/transport-error.js';
import { toCurl } from '../curl.js';
import { maskJsonText, type Secrets } from '../secrets.js';
import type { Check, CheckContext, Exchange, Failure, ReportedFailure } from '../types.js';
import { createCredentialsSeen } from './credentials-seen.js';
import type { Outcome } from './results.js';

const BODY_LIMIT = 600;

export interface Evaluation {
  readonly checks?: readonly string[];
  /** Report the named checks under another operation or check name (a case step: `case/<name>` on the case's operation). */
  readonly reportAs?: { readonly operationId: string; readonly check: string };
  readonly facts?: Readonly<Record<string, unknown>>;
  readonly related?: Readonly<Record<string, Exchange>>;
}

export interface Recorder {
  /** Runs the response checks (unless `withResponseChecks` is false) and the named ones on an exchange. */
  evaluate(exchange: Exchange, evaluation: Evaluation, withResponseChecks?: boolean): Failure[];
  /** Records that a check did not run on an operation, for a stated reason (read-only target, no low user…). */
  skip(operationId: string, check: string, reason: string): void;
  /** Records that a check, or part of it, could not run or judge (a step captured nothing, no block came…): never `ok`. */
  inconclusive(operationId: string, check: string, reason: string): void;
  setGroup(group: string): void;
  outcomes(): Outcome[];
}

const titleOf = (check: string): string => getCheck(check.startsWith('case/') ? 'case-expectation' : check).title;

export function trimBody(text: string, secrets: Secrets): string {
  const masked = secrets.mask(maskJsonText(text));
  return masked.length > BODY_LIMIT ? `${masked.slice(0, BODY_LIMIT)}… (${masked.length} characters)` : masked;
}

export function createRecorder(base: Omit<CheckContext, 'facts' | 'related' | 'credentials'>, secrets: Secrets, onEvery: readonly Check[] = responseChecks): Recorder {
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
  const report = (exchange: Exchange, failure: Failure): ReportedFailure => ({
    ...failure,
    key: exchange.key,
    curl: toCurl(secrets.maskRequest(exchange.request)),
    actual: exchange.response
      ? { status: exchange.response.status, body: trimBody(exchange.response.body, secrets) }
      : { error: exchange.error ?? 'no answer' },
  });

  return {
    setGroup(name) {
      group = name;
    },
    evaluate(exchange, evaluation, withResponseChecks = true) {
      credentials.learn(exchange);
      const context: CheckContext = { ...base, credentials: credentials.seen, facts: evaluation.facts ?? {}, related: evaluation.related ?? {} };
      const named = (evaluation.checks ?? []).map(getCheck);
      const found: Failure[] = [];
      const run = (check: Check, renamed: Evaluation['reportAs']): void => {
        // Without an answer only transport-error can judge; the others say so rather than `ok`.
        const judgement = exchange.response || check === transportError ? check.run(exchange, context) : inconclusive(`no answer: ${exchange.error ?? 'none'}`);
        const o = outcome(renamed?.operationId ?? exchange.operationId, renamed?.check ?? check.name, check.title);
        o.exchanges += 1;
        if (isInconclusive(judgement)) {
          o.inconclusive ??= `${exchange.operationId === o.operationId ? '' : `${exchange.operationId} `}${judgement.inconclusive} (${exchange.key})`;
          return;
        }
        const failures = judgement.map((f) => (renamed ? { ...f, ...renamed } : f));
        for (const f of failures) o.failures.push(report(exchange, f));
        found.push(...failures);
      };
      if (withResponseChecks) for (const check of onEvery) run(check, undefined);
      for (const check of named) run(check, evaluation.reportAs);
      return found;
    },
    skip(operationId, check, reason) {
      const o = outcome(operationId, check, titleOf(check));
      o.skipped ??= reason;
    },
    inconclusive(operationId, check, reason) {
      const o = outcome(operationId, check, titleOf(check));
      o.inconclusive ??= reason;
    },
    outcomes: () => [...outcomes.values()],
  };
}
