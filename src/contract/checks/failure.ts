// Builds the Failure records checks return; the verdict follows the citation unless a check says otherwise.
import { severityOf, verdictOf } from '../citations.js';
import type { Check, Citation, Exchange, Failure, Verdict } from '../types.js';

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
