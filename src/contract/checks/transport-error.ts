import { citeOperation } from '../citations.js';
import { failure } from './failure.js';
import { defineCheck } from './define.js';

/** The server answered at all (no timeout, no reset connection); an answer the runner did not read whole is still an answer. */
export const transportError = defineCheck({
  name: 'transport-error',
  title: 'The server answers',
  judgesUnreadBody: true,
  run(exchange, context) {
    if (exchange.response || !exchange.error) return [];
    return [
      failure(this, exchange, {
        message: `no answer: ${exchange.error}`,
        expected: 'an HTTP answer',
        citation: citeOperation(context.spec.operation(exchange.operationId)),
        verdict: 'violation',
      }),
    ];
  },
});
