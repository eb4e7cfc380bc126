import { citeOperation } from '../citations.js';
import { failure, inconclusive, notAList } from './failure.js';
import { isSuccess, recordsOf } from './records.js';
import { defineCheck } from './define.js';

export interface LimitFacts {
  readonly limit: number;
}

/**
 * `limit` is the maximum number of records returned (4.4, 4.6). A list too large for the runner
 * to parse is judged by the items counted in it: a server that ignores `limit` answers with
 * the whole log.
 */
export const limitHonoured = defineCheck({
  name: 'limit-honoured',
  title: '`limit` caps the number of records',
  judgesUnreadBody: true,
  run(exchange, context, facts: LimitFacts) {
    const { limit } = facts;
    const counted = exchange.response?.json === undefined ? exchange.response?.itemsAtLeast : undefined;
    const records = recordsOf(exchange);
    if (exchange.error && counted === undefined) return inconclusive(`the body was not judged: ${exchange.error}`);
    if (!isSuccess(exchange) || !(records ?? counted !== undefined)) return notAList(exchange);
    const returned = records?.length ?? counted ?? 0;
    if (returned <= limit) return records ? [] : inconclusive(`the body was not judged whole: ${exchange.error ?? ''}; ${returned} record(s) counted`);
    return [
      failure(this, exchange, {
        message: `limit=${limit} returned ${records ? '' : 'at least '}${returned} records`,
        expected: `at most ${limit} records`,
        citation: citeOperation(context.spec.operation(exchange.operationId), 'limit: maximum number of records to return.'),
      }),
    ];
  },
});
