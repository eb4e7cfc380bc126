import { citeOperation } from '../citations.js';
import { failure } from './failure.js';
import { defineCheck } from './define.js';

/** The server answered at all (no timeout, no reset connection). */
export const transportError = defineCheck({
  name: 'transport-error',
  title: 'The server answers',
  run(exchange, context) {
    if (!exchange.error) return [];
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
