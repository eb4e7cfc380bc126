import { citeErrorStatuses, citeParameter, citeResponse } from '../citations.js';
import type { Check, Citation } from '../types.js';
import { failure } from './failure.js';

/**
 * Invalid input (a wrong type, a value out of its enum, a broken pattern, a missing body
 * field, a filter that is not JSON…) gets a 4xx. Accepting it is a note: the spec shows no
 * errors, refusing is the document's choice. A 5xx is not-server-error's finding.
 * Facts: `what` (the input described), `parameter` (its name, when it is one).
 */
export const invalidInputRefused: Check = {
  name: 'invalid-input-refused',
  title: 'Invalid input is refused with a 4xx',
  run(exchange, context) {
    const status = exchange.response?.status;
    if (status === undefined || (status >= 400 && status < 600)) return [];
    const op = context.spec.operation(exchange.operationId);
    const parameter = context.facts.parameter as string | undefined;
    let citation: Citation = op.responses['400'] ? citeResponse(op, 400) : citeErrorStatuses(op);
    if (parameter && op.parameters.some((p) => p.name === parameter && typeof (p as unknown as Record<string, unknown>)['x-gap-fill'] === 'string')) {
      citation = citeParameter(op, parameter);
    }
    return [
      failure(this, exchange, {
        message: `${String(context.facts.what ?? 'invalid input')} was accepted with ${status}`,
        expected: 'a 4xx refusal (400 in the document)',
        citation,
        verdict: 'note',
      }),
    ];
  },
};
