import { citeOperation } from '../citations.js';
import { failure, notAList } from './failure.js';
import { isSuccess, recordsOf } from './records.js';
import { defineCheck } from './define.js';

export interface LimitFacts {
  readonly limit: number;
}

/** `limit` is the maximum number of records returned (4.4, 4.6). */
export const limitHonoured = defineCheck({
  name: 'limit-honoured',
  title: '`limit` caps the number of records',
  run(exchange, context, facts: LimitFacts) {
    const { limit } = facts;
    const records = recordsOf(exchange);
    if (!isSuccess(exchange) || !records) return notAList(exchange);
    if (records.length <= limit) return [];
    return [
      failure(this, exchange, {
        message: `limit=${limit} returned ${records.length} records`,
        expected: `at most ${limit} records`,
        citation: citeOperation(context.spec.operation(exchange.operationId), 'limit: maximum number of records to return.'),
      }),
    ];
  },
});
