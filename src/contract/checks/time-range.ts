import { citeOperation, citeParameter } from '../citations.js';
import type { Failure } from '../types.js';
import { failure, notAList } from './failure.js';
import { isSuccess, recordsOf, type ReferenceList } from './records.js';
import { defineCheck } from './define.js';

const stamp = (r: Record<string, unknown>): number | undefined => (typeof r.timestamp === 'number' ? r.timestamp : undefined);

export interface TimeRangeFacts extends ReferenceList {
  readonly from?: number;
  readonly to?: number;
}

/**
 * `from`/`to` bound the records' timestamps (4.4, 4.6); when the reference list is complete,
 * every record of it inside the bounds must come back.
 * A record outside or missing strictly inside is a violation; a missing record exactly on a
 * bound is a note (inclusive bounds are a gap-fill).
 */
export const timeRange = defineCheck({
  name: 'time-range',
  title: '`from`/`to` bound the timestamps',
  run(exchange, context, facts: TimeRangeFacts) {
    const records = recordsOf(exchange);
    if (!isSuccess(exchange) || !records) return notAList(exchange);
    const { from, to } = facts;
    const inside = (t: number): boolean => (from === undefined || t >= from) && (to === undefined || t <= to);
    const bounds = `from=${from ?? '-'}&to=${to ?? '-'}`;
    const op = context.spec.operation(exchange.operationId);
    const specCitation = citeOperation(op, 'from: lower-bound timestamp; to: upper-bound timestamp.');
    const expected = `only records with ${from ?? '-∞'} <= timestamp <= ${to ?? '∞'}`;
    const failures: Failure[] = [];
    const outside = records.filter((r) => stamp(r) !== undefined && !inside(stamp(r) ?? 0));
    if (outside.length > 0) {
      failures.push(
        failure(this, exchange, {
          message: `${bounds} returned ${outside.length} records outside the bounds, e.g. timestamp ${stamp(outside[0] ?? {})}`,
          expected,
          citation: specCitation,
        }),
      );
    }
    const reference = recordsOf(facts.reference);
    if (reference && facts.referenceComplete) {
      const got = new Set(records.map((r) => JSON.stringify(r._id ?? r)));
      const missing = reference.filter((r) => stamp(r) !== undefined && inside(stamp(r) ?? 0) && !got.has(JSON.stringify(r._id ?? r)));
      const onBound = missing.filter((r) => stamp(r) === from || stamp(r) === to);
      if (missing.length > onBound.length) {
        failures.push(
          failure(this, exchange, {
            message: `${bounds} left out ${missing.length - onBound.length} records inside the bounds`,
            expected,
            citation: specCitation,
          }),
        );
      } else if (onBound.length > 0) {
        failures.push(
          failure(this, exchange, {
            message: `${bounds} left out ${onBound.length} records whose timestamp equals a bound`,
            expected: 'bounds that include records exactly on them',
            citation: citeParameter(op, stamp(onBound[0] ?? {}) === from ? 'from' : 'to'),
          }),
        );
      }
    }
    return failures;
  },
});
