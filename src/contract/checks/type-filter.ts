import { citeOperation } from '../citations.js';
import type { Check, Failure } from '../types.js';
import { failure, notAList } from './failure.js';
import { isSuccess, recordsOf } from './records.js';

const SNMP = 'snmp-trap';

/**
 * `type=1` returns only SNMP traps, `type=2` only MQTT messages (4.4; `snmp-trap` is the text
 * type of a trap, spec 2). Facts: `type`; when `referenceComplete`, the count must match the
 * related `reference` list too.
 */
export const typeFilter: Check = {
  name: 'type-filter',
  title: '`type` selects SNMP traps (1) or MQTT messages (2)',
  run(exchange, context) {
    const records = recordsOf(exchange);
    const type = String(context.facts.type);
    if (!isSuccess(exchange) || !records) return notAList(exchange);
    if (type !== '1' && type !== '2') return [];
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
    const reference = recordsOf(context.related.reference);
    if (failures.length === 0 && reference && context.facts.referenceComplete === true) {
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
};
