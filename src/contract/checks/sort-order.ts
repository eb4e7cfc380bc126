import { citeOperation, citeParameter } from '../citations.js';
import type { Citation } from '../types.js';
import { failure, notAList } from './failure.js';
import { citeOrder } from './order-citation.js';
import { compareCollated, describeValue, distinctCount, firstDisorder, isSuccess, recordsOf, sortKeysOf, valueAt } from './records.js';
import { defineCheck } from './define.js';

export interface SortOrderFacts {
  /** The sortField sent; absent: the document's default field (a gap-fill). */
  readonly sortField?: string;
  /** The sortDirection sent; absent: asc (spec 4.4). */
  readonly sortDirection?: 'asc' | 'desc';
}

/**
 * Records come ordered by `sortField` in `sortDirection` (asc when absent: spec 4.4).
 * An order that holds only under a case-insensitive collation is a note.
 */
export const sortOrder = defineCheck({
  name: 'sort-order',
  title: 'Records are ordered by sortField and sortDirection (asc by default)',
  run(exchange, context, facts: SortOrderFacts) {
    const records = recordsOf(exchange);
    if (!isSuccess(exchange) || !records) return notAList(exchange);
    const op = context.spec.operation(exchange.operationId);
    const givenField = facts.sortField;
    const field = givenField ?? String(op.parameters.find((p) => p.name === 'sortField')?.schema.default ?? 'timestamp');
    const givenDirection = facts.sortDirection;
    const direction = givenDirection ?? 'asc';
    const keys = sortKeysOf(records, field, direction);
    const at = firstDisorder(keys, direction);
    if (at < 0) return [];
    const collated = firstDisorder(keys, direction, compareCollated) < 0;
    const values = records.map((r) => valueAt(r, field));
    let citation: Citation;
    if (collated || !givenField) citation = citeOrder(op);
    else if (!givenDirection) citation = citeParameter(op, 'sortDirection', 'sortDirection: asc or desc; the first listed (asc) is the default.');
    else citation = citeOperation(op, 'sortField: name of the field used to sort; sortDirection: asc or desc.');
    const reversed = distinctCount(values) > 1 && firstDisorder(keys, direction === 'asc' ? 'desc' : 'asc') < 0;
    return [
      failure(this, exchange, {
        message:
          `${givenField ? `sortField=${field}` : `default sort (${field})`}${givenDirection ? `&sortDirection=${direction}` : ''}: ` +
          (reversed
            ? `the records come in ${direction === 'asc' ? 'descending' : 'ascending'} order`
            : `record ${at} (${describeValue(values[at - 1])}) comes before record ${at + 1} (${describeValue(values[at])})`) +
          (collated ? ' (ordered only under a case-insensitive collation)' : ''),
        expected: `records in ${direction === 'asc' ? 'ascending' : 'descending'} order of ${field}`,
        citation,
      }),
    ];
  },
});
