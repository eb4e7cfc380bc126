import { citeOperation } from '../citations.js';
import type { Check } from '../types.js';
import { failure, notAList } from './failure.js';
import { isSuccess, recordsOf } from './records.js';

/** `limit` is the maximum number of records returned (4.4, 4.6). Facts: `limit`. */
export const limitHonoured: Check = {
  name: 'limit-honoured',
  title: '`limit` caps the number of records',
  run(exchange, context) {
    const limit = Number(context.facts.limit);
    const records = recordsOf(exchange);
    if (!isSuccess(exchange) || !records) return notAList(exchange);
    if (!Number.isFinite(limit) || records.length <= limit) return [];
    return [
      failure(this, exchange, {
        message: `limit=${limit} returned ${records.length} records`,
        expected: `at most ${limit} records`,
        citation: citeOperation(context.spec.operation(exchange.operationId), 'limit: maximum number of records to return.'),
      }),
    ];
  },
};
