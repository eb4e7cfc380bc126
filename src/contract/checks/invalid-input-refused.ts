import { citeErrorStatuses, citeParameter, citeResponse } from '../citations.js';
import type { Citation } from '../types.js';
import { failure } from './failure.js';
import { defineCheck } from './define.js';

export interface InvalidInputFacts {
  /** The input, described for people (`filter={"agentId":`). */
  readonly what: string;
  /** The parameter it went in, when it is one. */
  readonly parameter?: string;
}

/**
 * Invalid input (a wrong type, a value out of its enum, a broken pattern, a missing body
 * field, a filter that is not JSON…) gets a 4xx. Accepting it is a note: the spec shows no
 * errors, refusing is the document's choice. A 5xx is not-server-error's finding.
 */
export const invalidInputRefused = defineCheck({
  name: 'invalid-input-refused',
  title: 'Invalid input is refused with a 4xx',
  judgesUnreadBody: true,
  run(exchange, context, facts: InvalidInputFacts) {
    const status = exchange.response?.status;
    if (status === undefined || (status >= 400 && status < 600)) return [];
    const op = context.spec.operation(exchange.operationId);
    const { parameter } = facts;
    let citation: Citation = op.responses['400'] ? citeResponse(op, 400) : citeErrorStatuses(op);
    if (parameter && op.parameters.some((p) => p.name === parameter && typeof (p as unknown as Record<string, unknown>)['x-gap-fill'] === 'string')) {
      citation = citeParameter(op, parameter);
    }
    return [
      failure(this, exchange, {
        message: `${facts.what} was accepted with ${status}`,
        expected: 'a 4xx refusal (400 in the document)',
        citation,
        verdict: 'note',
      }),
    ];
  },
});
