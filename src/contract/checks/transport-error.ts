import { citeOperation } from '../citations.js';
import { failure, inconclusive } from './failure.js';
import { defineCheck } from './define.js';
import type { Exchange } from '../types.js';

/**
 * Why an exchange has no answer, as every report line about it says: the runner's own deadline,
 * named as such (the spec sets no time to answer in), or what the connection did.
 */
export function noAnswer(exchange: Exchange): string {
  if (exchange.timedOutAfterMs !== undefined) {
    return `no answer within the runner's timeout of ${exchange.timedOutAfterMs} ms (--timeout); the specification states no time limit`;
  }
  return `no answer: ${exchange.error ?? 'none'}`;
}

/**
 * The server answered at all: a connection reset, refused or closed before any answer is a
 * violation (an HTTP request gets an answer); an answer the runner did not read whole is still an
 * answer. The spec sets no time to answer in, so no answer within the runner's own deadline is
 * inconclusive, never ok and never a violation.
 */
export const transportError = defineCheck({
  name: 'transport-error',
  title: 'The server answers',
  judgesUnreadBody: true,
  run(exchange, context) {
    if (exchange.response || !exchange.error) return [];
    if (exchange.timedOutAfterMs !== undefined) return inconclusive(noAnswer(exchange));
    return [
      failure(this, exchange, {
        message: noAnswer(exchange),
        expected: 'an HTTP answer',
        citation: citeOperation(context.spec.operation(exchange.operationId)),
        verdict: 'violation',
      }),
    ];
  },
});
