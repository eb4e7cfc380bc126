import { citeOperation } from '../citations.js';
import { failure } from './failure.js';
import { defineCheck } from './define.js';

/** A 5xx is never an answer: bad input gets a 4xx, good input gets served. */
export const notServerError = defineCheck({
  name: 'not-server-error',
  title: 'The server does not fail (no 5xx)',
  judgesUnreadBody: true,
  run(exchange, context) {
    const status = exchange.response?.status;
    if (status === undefined || status < 500) return [];
    const op = context.spec.operation(exchange.operationId);
    return [
      failure(this, exchange, {
        message: `answered ${status}, a server error`,
        expected: 'a documented answer (2xx or a 4xx refusal), never a 5xx',
        citation: citeOperation(op),
        verdict: 'violation',
      }),
    ];
  },
});
