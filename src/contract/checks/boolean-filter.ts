import { citeOperation } from '../citations.js';
import type { Check } from '../types.js';
import { failure, inconclusive, notAList } from './failure.js';
import { isSuccess, recordsOf } from './records.js';

const filled = (v: unknown): boolean => v !== undefined && v !== null && v !== '';

/**
 * The limit-block log's boolean filters (4.6): `field=true` keeps only records with a non-empty
 * field; `field=false` filters nothing (as many records as the related `reference`).
 * Facts: `field`, `value`.
 */
export const booleanFilter: Check = {
  name: 'boolean-filter',
  title: 'Boolean filters keep records with the field (true) or all records (false)',
  run(exchange, context) {
    const records = recordsOf(exchange);
    if (!isSuccess(exchange) || !records) return notAList(exchange);
    const field = String(context.facts.field);
    const op = context.spec.operation(exchange.operationId);
    if (context.facts.value === true) {
      const empty = records.filter((r) => !filled(r[field]));
      if (empty.length === 0) return [];
      return [
        failure(this, exchange, {
          message: `${field}=true returned ${empty.length} of ${records.length} records without ${field}`,
          expected: `only records with a non-empty ${field}`,
          citation: citeOperation(op, `${field}: when true, only records with non-empty ${field}.`),
        }),
      ];
    }
    const reference = recordsOf(context.related.reference);
    if (!reference) return inconclusive('the unfiltered reference list was not read');
    if (reference.length === records.length) return [];
    return [
      failure(this, exchange, {
        message: `${field}=false returned ${records.length} records; without the filter there are ${reference.length}`,
        expected: `all ${reference.length} records`,
        citation: citeOperation(op, 'When a boolean filter is false or absent, all records are retrieved with respect to that field.'),
      }),
    ];
  },
};
