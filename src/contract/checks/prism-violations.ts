import { gapFill } from '../citations.js';
import { failure } from './failure.js';
import { defineCheck } from './define.js';

interface PrismViolation {
  location?: unknown[];
  severity?: string;
  message?: string;
}

/**
 * Prism's own opinion when the suite runs through `prism proxy`: its `sl-violations` header on
 * the response. Only response violations count (the suite sends invalid requests on purpose);
 * they are notes, a second opinion beside the suite's own verdicts.
 */
export const prismViolations = defineCheck({
  name: 'prism-violations',
  title: 'Prism finds no response violation',
  run(exchange) {
    const header = exchange.response?.headers['sl-violations'];
    if (typeof header !== 'string') return [];
    let violations: PrismViolation[];
    try {
      violations = JSON.parse(header) as PrismViolation[];
    } catch {
      return [];
    }
    return violations
      .filter((v) => v.location?.[0] === 'response')
      .map((v) =>
        failure(this, exchange, {
          message: `Prism (${v.severity ?? 'Error'}) at ${(v.location ?? []).join('.')}: ${v.message ?? ''}`,
          expected: 'a response Prism finds valid against the document',
          citation: gapFill('prism proxy', 'The spec does not cover Prism; the document is what Prism validates against, gap-fills included.'),
          verdict: 'note',
        }),
      );
  },
});
