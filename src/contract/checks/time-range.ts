import { citeOperation, citeParameter } from '../citations.js';
import type { Check, Failure } from '../types.js';
import { failure, notAList } from './failure.js';
import { isSuccess, recordsOf } from './records.js';

const stamp = (r: Record<string, unknown>): number | undefined => (typeof r.timestamp === 'number' ? r.timestamp : undefined);

/**
 * `from`/`to` bound the records' timestamps (4.4, 4.6). Facts: `from`, `to`; with
 * `referenceComplete`, every record of the related `reference` inside the bounds must come back.
 * A record outside or missing strictly inside is a violation; a missing record exactly on a
 * bound is a note (inclusive bounds are a gap-fill).
 */
export const timeRange: Check = {
  name: 'time-range',
  title: '`from`/`to` bound the timestamps',
  run(exchange, context) {
    const records = recordsOf(exchange);
    if (!isSuccess(exchange) || !records) return notAList(exchange);
    const from = context.facts.from as number | undefined;
    const to = context.facts.to as number | undefined;
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
    const reference = recordsOf(context.related.reference);
    if (reference && context.facts.referenceComplete === true) {
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
};
