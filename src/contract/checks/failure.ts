// Builds the Failure records checks return; the verdict follows the citation unless a check says otherwise.
import { severityOf, verdictOf } from '../citations.js';
import type { Check, Citation, Exchange, Failure, Inconclusive, Verdict } from '../types.js';

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
