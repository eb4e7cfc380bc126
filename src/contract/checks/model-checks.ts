// The checks judged against the model of a list operation: each reports the faults of its own
// rule (model/faults.ts finds them all once per answer).
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

/**
 * The log is stored data (spec 6): the window read oldest first and newest first holds the
 * same records, and every answer inside it gives those records unchanged.
 */
export const recordsConsistent = defineModelCheck('records-consistent', 'Answers give the records of the window as read whole');

/**
 * `limit` is the maximum number of records (4.4, 4.6; `limit=0` returns none), judged on a list
 * too large to parse by the items counted in it; without `limit`, every record comes back (the
 * document's gap-fill, a note).
 */
export const limitHonoured = defineModelCheck('limit-honoured', '`limit` caps the number of records; without it every record comes', { judgesUnreadBody: true });

/** A page by `skip`/`limit` is that slice of the ordered selection (4.4, 4.6). */
export const pagesAgree = defineModelCheck('pages-agree', 'Pages by skip/limit are slices of the ordered selection');

/**
 * Records come in the documented order: by `sortField` in `sortDirection` (asc by default, 4.4)
 * with ties by `_id` and MongoDB's order of values (the document's), or, for the block log, by
 * timestamp ascending (the document's). What the spec states is a violation; the rest a note.
 */
export const sortOrder = defineModelCheck('sort-order', 'Records come in the documented order');

/** `inverse=true` inverts the order and `inverse=false` does not (4.4). */
export const inverseOrder = defineModelCheck('inverse-order', '`inverse` inverts the order');

/** `type=1` returns the SNMP traps and `type=2` the MQTT messages of the selection, all of them (4.4). */
export const typeFilter = defineModelCheck('type-filter', '`type` selects SNMP traps (1) or MQTT messages (2)');

/**
 * `from`/`to` bound the timestamps (4.4, 4.6): a record outside them, or one inside left out, is a
 * violation; records exactly on a bound left out are a note (inclusive bounds are a gap-fill).
 */
export const timeRange = defineModelCheck('time-range', '`from`/`to` bound the timestamps');

/**
 * A `filter` returns exactly the records it matches in MongoDB's language. Plain `{field: value}`
 * equality is the spec's "filter for the records" (a violation); operators, and a refused
 * filter, are the document's filter language (a note).
 */
export const filterMatches = defineModelCheck('filter-matches', 'A filter returns exactly the matching records');

/** The limit-block log's boolean filters (4.6): `field=true` keeps exactly the records with a non-empty field; false or absent filters nothing. */
export const booleanFilter = defineModelCheck('boolean-filter', 'Boolean filters keep records with the field (true) or all records (false)');
