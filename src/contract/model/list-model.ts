// The model of a list operation inside a closed world: the exact answer any query must get.
import type { Operation } from '../../spec/index.js';
import type { ClosedWorld } from './closed-world.js';
import { compareOf, criteriaOf, type Query, type Row } from './list-rules.js';

export interface ListModel {
  readonly op: Operation;
  readonly world: ClosedWorld;
}

export interface Expected {
  /** Every record the query selects, in order. */
  readonly selected: readonly Row[];
  readonly skip: number;
  readonly limit?: number;
  /** The answer: `selected` after skip and limit. */
  readonly page: readonly Row[];
}

/**
 * Select (time bounds, type, filter, boolean filters), order (sort field and direction, `_id`
 * ties, inverse), then drop `skip` records and keep at most `limit` ("maximum number of
 * records": `limit=0` returns none; no `limit`, every record: the document's gap-fill).
 */
export function expectedOf(model: ListModel, query: Query): Expected {
  const criteria = criteriaOf(model.op, query);
  const selected = model.world.records.filter((r) => criteria.every((c) => c.test(r))).sort(compareOf(model.op, query));
  const skip = query.skip === undefined ? 0 : Number(query.skip);
  const limit = query.limit === undefined ? undefined : Number(query.limit);
  return { selected, skip, ...(limit === undefined ? {} : { limit }), page: selected.slice(skip, limit === undefined ? undefined : skip + limit) };
}
