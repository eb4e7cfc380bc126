import { citeOperation, citeParameter } from '../citations.js';
import type { Failure } from '../types.js';
import { failure, notAList } from './failure.js';
import { describeValue, isSuccess, recordsOf, valueAt, type ReferenceList } from './records.js';
import { defineCheck } from './define.js';

export interface FilterMatchesFacts extends ReferenceList {
  /** The filter is `{field: value}`. */
  readonly field: string;
  readonly value: unknown;
}

/**
 * A `filter` of one field equal to a value returns only (and, with `referenceComplete`, all)
 * records whose field has that value. Refusing the filter is a note: the filter language is a
 * gap-fill.
 */
export const filterMatches = defineCheck({
  name: 'filter-matches',
  title: 'A filter on a field returns only matching records',
  run(exchange, context, facts: FilterMatchesFacts) {
    const op = context.spec.operation(exchange.operationId);
    const { field, value } = facts;
    const status = exchange.response?.status ?? 0;
    const filter = JSON.stringify({ [field]: value });
    if (status >= 400 && status < 500 && status !== 429) {
      return [
        failure(this, exchange, {
          message: `filter ${filter} was refused with ${status}`,
          expected: 'the filter accepted (the document takes MongoDB-style queries)',
          citation: citeParameter(op, 'filter'),
        }),
      ];
    }
    const records = recordsOf(exchange);
    if (!isSuccess(exchange) || !records) return notAList(exchange);
    const citation = citeOperation(op, 'filter: JSON-encoded filter for the records.');
    const matches = (r: unknown): boolean => JSON.stringify(valueAt(r, field)) === JSON.stringify(value);
    const failures: Failure[] = [];
    const stray = records.filter((r) => !matches(r));
    if (stray.length > 0) {
      failures.push(
        failure(this, exchange, {
          message: `filter ${filter} returned ${stray.length} of ${records.length} records that do not match, e.g. ${field}=${describeValue(valueAt(stray[0], field))}`,
          expected: `only records with ${field} = ${describeValue(value)}`,
          citation,
        }),
      );
    }
    const reference = recordsOf(facts.reference);
    if (failures.length === 0 && reference && facts.referenceComplete) {
      const count = reference.filter(matches).length;
      if (count !== records.length) {
        failures.push(
          failure(this, exchange, {
            message: `filter ${filter} returned ${records.length} records; the unfiltered list holds ${count} matching ones`,
            expected: `all ${count} matching records`,
            citation,
          }),
        );
      }
    }
    return failures;
  },
});
