// The checks judged against the model of a list operation: model/faults.ts finds every fault of an
// answer once, and each check reports those of its own rule (model/list-model.ts names the rules).
import { faultsOf, type ModelFacts } from '../model/faults.js';
import type { ModelCheckName } from '../model/list-model.js';
import type { Check } from '../types.js';
import { defineCheck, failure, isInconclusive } from './check.js';

function defineModelCheck<const Name extends ModelCheckName>(name: Name, title: string, options: { judgesUnreadBody?: true } = {}): Check<Name, ModelFacts> {
  return defineCheck({
    name,
    title,
    ...options,
    run(exchange, context, facts: ModelFacts) {
      const judged = faultsOf(context.spec.operation(exchange.operationId), exchange, facts);
      if (isInconclusive(judged)) return judged;
      return judged
        .filter((f) => f.check === name)
        .map((f) => failure(this, exchange, { ...f, message: facts.found ? `${f.message} (${facts.found})` : f.message }));
    },
  });
}

/** The log is stored data (spec 6): the window read both ways holds the same records, and every answer inside it gives them unchanged. */
export const recordsConsistent = defineModelCheck('records-consistent', 'Answers give the records of the window as read whole');
/** At most `limit` records (4.4, 4.6; also judged on a list too large to parse, by the items counted); without it, every record (a gap-fill). */
export const limitHonoured = defineModelCheck('limit-honoured', '`limit` caps the number of records; without it every record comes', { judgesUnreadBody: true });
export const pagesAgree = defineModelCheck('pages-agree', 'Pages by skip/limit are slices of the ordered selection');
/** By `sortField` in `sortDirection` (4.4), ties by `_id` in MongoDB's order (the document's); the block log by timestamp (the document's). */
export const sortOrder = defineModelCheck('sort-order', 'Records come in the documented order');
export const inverseOrder = defineModelCheck('inverse-order', '`inverse` inverts the order');
export const typeFilter = defineModelCheck('type-filter', '`type` selects SNMP traps (1) or MQTT messages (2)');
/** A record outside the bounds, or one inside left out, is a violation; one exactly on a bound left out a note (inclusive bounds are a gap-fill). */
export const timeRange = defineModelCheck('time-range', '`from`/`to` bound the timestamps');
/** Plain `{field: value}` equality is the spec's "filter for the records"; operators are the document's filter language (a note). */
export const filterMatches = defineModelCheck('filter-matches', 'A filter returns exactly the matching records');
export const booleanFilter = defineModelCheck('boolean-filter', 'Boolean filters keep records with the field (true) or all records (false)');

export const modelChecks = [recordsConsistent, limitHonoured, pagesAgree, sortOrder, inverseOrder, typeFilter, timeRange, filterMatches, booleanFilter] as const;
