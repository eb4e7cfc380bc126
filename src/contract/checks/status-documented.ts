import { citeOperation, gapFill } from '../citations.js';
import type { Citation } from '../types.js';
import { failure } from './failure.js';
import { responseProblems } from './response-problems.js';
import { defineCheck } from './define.js';

type Annotated = Record<string, unknown>;

/**
 * The status is one the document lists. An undocumented status of a class whose documented
 * statuses are all gap-fills (every error status, the gap-filled 2xx of 4.1, 4.3, 4.5) is a
 * note; otherwise a violation. 5xx are left to not-server-error.
 */
export const statusDocumented = defineCheck({
  name: 'status-documented',
  title: 'The status is documented',
  judgesUnreadBody: true,
  run(exchange, context) {
    const status = exchange.response?.status;
    if (status === undefined || status >= 500) return [];
    if (!responseProblems(exchange, context).some((p) => p.kind === 'undocumented-status')) return [];
    const op = context.spec.operation(exchange.operationId);
    const klass = String(status)[0];
    const sameClass = Object.entries(op.responses).filter(([code]) => code[0] === klass);
    const gaps = sameClass.map(([code, r]) => [code, (r as Annotated)['x-gap-fill']] as const);
    let citation: Citation = citeOperation(op);
    if (gaps.length > 0 && gaps.every(([, s]) => typeof s === 'string')) {
      const [code, sentence] = gaps[0] ?? [];
      citation = gapFill(`${op.operationId} response ${String(code)}`, String(sentence));
    }
    const documented = Object.keys(op.responses).join(', ');
    return [
      failure(this, exchange, {
        message: `answered ${status}, which the document does not list for ${op.operationId}`,
        expected: `one of ${documented}`,
        citation,
      }),
    ];
  },
});
