import { citeOperation, citeParameter } from '../citations.js';
import type { Exchange } from '../types.js';
import { failure, inconclusive, notAList } from './failure.js';
import { distinctCount, firstDisorder, isSuccess, recordsOf, sortKeysOf, valueAt } from './records.js';
import { defineCheck } from './define.js';

export interface InverseOrderFacts {
  readonly sortField: string;
  readonly sortDirection: 'asc' | 'desc';
  /** The same query without `inverse`. */
  readonly plain: Exchange;
}

/**
 * `inverse=true` inverts the order (spec 4.4). The same order as without inverse is a violation;
 * an order that is not the reverse of sortField/sortDirection is a note (how inverse
 * combines with sortDirection is a gap-fill).
 */
export const inverseOrder = defineCheck({
  name: 'inverse-order',
  title: '`inverse` inverts the order',
  run(exchange, context, facts: InverseOrderFacts) {
    const records = recordsOf(exchange);
    const plain = recordsOf(facts.plain);
    if (!isSuccess(exchange) || !records) return notAList(exchange);
    if (!plain) return inconclusive('the order without inverse was not read');
    const op = context.spec.operation(exchange.operationId);
    const { sortField: field, sortDirection: direction } = facts;
    const values = records.map((r) => valueAt(r, field));
    const plainValues = plain.map((r) => valueAt(r, field));
    if (distinctCount(plainValues) > 1 && JSON.stringify(values) === JSON.stringify(plainValues)) {
      return [
        failure(this, exchange, {
          message: `inverse=true returned the records in the same order as without it (by ${field})`,
          expected: 'the order inverted',
          citation: citeOperation(op, 'inverse: whether to invert the order of items.'),
        }),
      ];
    }
    const inverted = direction === 'asc' ? 'desc' : 'asc';
    if (firstDisorder(sortKeysOf(records, field, direction), inverted) < 0) return [];
    return [
      failure(this, exchange, {
        message: `inverse=true with sortField=${field}&sortDirection=${direction} is not in ${inverted === 'desc' ? 'descending' : 'ascending'} order`,
        expected: `records in ${inverted === 'desc' ? 'descending' : 'ascending'} order of ${field}`,
        citation: citeParameter(op, 'inverse'),
      }),
    ];
  },
});
