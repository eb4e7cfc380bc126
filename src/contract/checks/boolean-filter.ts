import { citeOperation } from '../citations.js';
import type { Exchange } from '../types.js';
import { failure, inconclusive, notAList } from './failure.js';
import { isSuccess, recordsOf } from './records.js';
import { defineCheck } from './define.js';

const filled = (v: unknown): boolean => v !== undefined && v !== null && v !== '';

export interface BooleanFilterFacts {
  readonly field: string;
  readonly value: boolean;
  /** The same list without the filter. */
  readonly reference: Exchange;
}

/**
 * The limit-block log's boolean filters (4.6): `field=true` keeps only records with a non-empty
 * field; `field=false` filters nothing (as many records as the `reference` list).
 */
export const booleanFilter = defineCheck({
  name: 'boolean-filter',
  title: 'Boolean filters keep records with the field (true) or all records (false)',
  run(exchange, context, facts: BooleanFilterFacts) {
    const records = recordsOf(exchange);
    if (!isSuccess(exchange) || !records) return notAList(exchange);
    const { field } = facts;
    const op = context.spec.operation(exchange.operationId);
    if (facts.value) {
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
    const reference = recordsOf(facts.reference);
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
});
