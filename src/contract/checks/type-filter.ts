import { citeOperation } from '../citations.js';
import type { Failure } from '../types.js';
import { failure, notAList } from './failure.js';
import { isSuccess, recordsOf, type ReferenceList } from './records.js';
import { defineCheck } from './define.js';

const SNMP = 'snmp-trap';

export interface TypeFilterFacts extends ReferenceList {
  readonly type: '1' | '2';
}

/**
 * `type=1` returns only SNMP traps, `type=2` only MQTT messages (4.4; `snmp-trap` is the text
 * type of a trap, spec 2); when the reference list is complete, the count must match it too.
 */
export const typeFilter = defineCheck({
  name: 'type-filter',
  title: '`type` selects SNMP traps (1) or MQTT messages (2)',
  run(exchange, context, facts: TypeFilterFacts) {
    const records = recordsOf(exchange);
    const { type } = facts;
    if (!isSuccess(exchange) || !records) return notAList(exchange);
    const wanted = (r: Record<string, unknown>): boolean => (type === '1' ? r.type === SNMP : r.type !== SNMP);
    const op = context.spec.operation(exchange.operationId);
    const citation = citeOperation(op, 'type: message type, 1 SNMP trap, 2 MQTT message; the text type of an SNMP trap is "snmp-trap" (spec 2).');
    const expected = type === '1' ? 'only records of type "snmp-trap"' : 'no record of type "snmp-trap"';
    const failures: Failure[] = [];
    const stray = records.filter((r) => !wanted(r));
    if (stray.length > 0) {
      const kinds = [...new Set(stray.map((r) => String(r.type)))].join(', ');
      failures.push(failure(this, exchange, { message: `type=${type} returned ${stray.length} of ${records.length} records of type ${kinds}`, expected, citation }));
    }
    const reference = recordsOf(facts.reference);
    if (failures.length === 0 && reference && facts.referenceComplete) {
      const count = reference.filter(wanted).length;
      if (count !== records.length) {
        failures.push(
          failure(this, exchange, {
            message: `type=${type} returned ${records.length} records; the unfiltered list holds ${count} of that type`,
            expected: `all ${count} records of that type`,
            citation,
          }),
        );
      }
    }
    return failures;
  },
});
