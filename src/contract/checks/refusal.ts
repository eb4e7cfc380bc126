// Shared judgement for "this request must be refused with <status>" and "this request must be accepted".
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
  /** The request names an id that does not exist: a 404 shows it got past authentication and permissions. */
  readonly unknownTarget?: boolean;
}

/** Refused for who sent it (401, 403): the status, or undefined when it was let in. */
function refusedStatus(status: number, rule: Pick<RefusalRule, 'unknownTarget'>): number | undefined {
  if (status === 404 && rule.unknownTarget) return undefined;
  return status >= 400 ? status : undefined;
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
  if (refusedStatus(status, rule) === undefined) {
    return [
      failure(check, exchange, {
        message: `${rule.what} was accepted with ${status}${status === 404 ? ' (the unknown id it names was looked up)' : ''}`,
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

export interface AcceptanceRule {
  /** Why refusing is wrong. */
  readonly citation: Citation;
  readonly what: string;
  readonly unknownTarget?: boolean;
}

/** Refused with 401 or 403 → judged by `citation`; any other answer got past authentication and permissions. */
export function judgeAcceptance(check: Pick<Check, 'name' | 'title'>, exchange: Exchange, rule: AcceptanceRule): Judgement {
  const status = exchange.response?.status;
  if (status === undefined) return inconclusive('no answer');
  if (status >= 500 || status === 429) return inconclusive(`answered ${status}`);
  if (status !== 401 && status !== 403) return [];
  return [failure(check, exchange, { message: `${rule.what} was refused with ${status}`, expected: 'accepted (not 401 or 403)', citation: rule.citation })];
}
