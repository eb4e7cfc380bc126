// Shared judgement for "this request must be refused with <status>".
import type { Operation } from '../../spec/index.js';
import { citeOperation, citeResponse } from '../citations.js';
import type { Check, Citation, Exchange, Judgement } from '../types.js';
import { failure, inconclusive } from './failure.js';

export interface RefusalRule {
  /** The status the document gives the refusal (401, 403…). */
  readonly status: number;
  /** Why accepting is wrong: a spec section, or a gap-fill for extensions. */
  readonly acceptedCitation: Citation;
  readonly what: string;
}

/**
 * Accepted (2xx/3xx) → judged by `acceptedCitation`; refused with another 4xx → a note on the
 * documented refusal status (a gap-fill); a 5xx (not-server-error's finding) or a block (429)
 * says nothing of the refusal: inconclusive.
 */
export function judgeRefusal(check: Pick<Check, 'name' | 'title'>, exchange: Exchange, op: Operation, rule: RefusalRule): Judgement {
  const status = exchange.response?.status;
  if (status === undefined) return inconclusive('no answer');
  if (status >= 500 || status === 429) return inconclusive(`answered ${status}`);
  if (status === rule.status) return [];
  if (status < 400) {
    return [
      failure(check, exchange, {
        message: `${rule.what} was accepted with ${status}`,
        expected: `refused with ${rule.status}`,
        citation: rule.acceptedCitation,
      }),
    ];
  }
  return [
    failure(check, exchange, {
      message: `${rule.what} was refused with ${status}, not ${rule.status}`,
      expected: `refused with ${rule.status}`,
      citation: citeResponse(op, rule.status),
    }),
  ];
}

/** Spec 5: every call is authenticated by one of the three methods (extensions cite their gap-fill). */
export function citeAuthentication(op: Operation): Citation {
  return op.extension
    ? citeOperation(op)
    : { source: 'spec', ref: '5', text: 'Three methods exist (Basic, session cookie, API token); each call is authenticated by one of them.' };
}
