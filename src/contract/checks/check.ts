// How a check is written: a named function over one exchange and the facts of its step, returning failures (or why it could not judge).
import type { Applied, Check, Citation, Exchange, Failure, Inconclusive, Verdict } from '../types.js';
import { severityOf, verdictOf, citeOperation, citeParameter, gapFill } from '../citations.js';
import type { Operation } from '../../spec/index.js';

/** Declares a check; its name stays a literal type and its facts type is the `run` parameter's. */
export function defineCheck<const Name extends string, Facts = void>(check: Check<Name, Facts>): Check<Name, Facts> {
  return check;
}

/** A check with the facts of one step (none for checks that take none). */
export function apply<Facts>(check: Check<string, Facts>, ...facts: Facts extends void ? [] : [Facts]): Applied {
  const given = facts[0] as Facts;
  return { name: check.name, title: check.title, ...(check.judgesUnreadBody ? { judgesUnreadBody: true } : {}), ...(check.operations ? { operations: check.operations } : {}), judge: (exchange, context) => check.run(exchange, context, given) };
}

export interface FailureInput {
  readonly message: string;
  readonly expected: string;
  readonly citation: Citation;
  readonly verdict?: Verdict;
}

export function failure(check: Pick<Check, 'name' | 'title'>, exchange: Exchange, input: FailureInput): Failure {
  const verdict = input.verdict ?? verdictOf(input.citation);
  return {
    check: check.name,
    operationId: exchange.operationId,
    title: check.title,
    message: input.message,
    severity: severityOf(verdict),
    verdict,
    expected: input.expected,
    citation: input.citation,
  };
}

/** The check could not judge this exchange; the outcome says so instead of `ok`. */
export function inconclusive(reason: string): Inconclusive {
  return { inconclusive: reason };
}

export function isInconclusive<T>(judgement: readonly T[] | Inconclusive): judgement is Inconclusive {
  return !Array.isArray(judgement);
}

/** Why a check of a list could not judge an answer: no list came back. */
export function notAList(exchange: Exchange): Inconclusive {
  const status = exchange.response?.status;
  return inconclusive(status !== undefined && (status < 200 || status >= 300) ? `answered ${status}, not a list` : 'the answer is not a JSON list');
}

export type Json = Record<string, unknown>;

/** The response body as a list of records, or undefined when it is not a JSON array. */
export function recordsOf(exchange: Exchange | undefined): Json[] | undefined {
  const json = exchange?.response?.json;
  return Array.isArray(json) ? (json.filter((r) => typeof r === 'object' && r !== null) as Json[]) : undefined;
}

export function isSuccess(exchange: Exchange): boolean {
  const status = exchange.response?.status ?? 0;
  return status >= 200 && status < 300;
}

export function describeValue(v: unknown): string {
  const text = JSON.stringify(v) ?? 'undefined';
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}

export function citeOrder(op: Operation): Citation {
  if (op.parameters.some((p) => p.name === 'sortField')) return citeParameter(op, 'sortField');
  return op.gapFill ? gapFill(op.operationId, op.gapFill) : citeOperation(op);
}
