import { citeOperation } from '../citations.js';
import { failure, inconclusive, notAList } from './failure.js';
import { citeOrder } from './order-citation.js';
import { describeValue, isSuccess, type Json, recordsOf, valueAt, type ReferenceList } from './records.js';
import { defineCheck } from './define.js';

const identity = (record: Json, idField: string | undefined): string => {
  const id = idField ? valueAt(record, idField) : record;
  return typeof id === 'string' ? id : JSON.stringify(id);
};

export interface PageFacts extends ReferenceList {
  readonly skip: number;
  readonly limit: number;
  /** The field that names a record (`_id`); without one, whole records are compared. */
  readonly idField?: string;
  /** The field the list is ordered by (`timestamp`), to tell a tie order from a wrong page. */
  readonly sortKey: string;
}

/**
 * A page by `skip`/`limit` is the same slice of the reference list (same filters, an explicit
 * large limit). When the reference is not complete (the server holds more records), only the
 * part of a page that it covers is compared. Differences among records of equal sort key only
 * are a note (the tie rule is a gap-fill).
 */
export const pagesAgree = defineCheck({
  name: 'pages-agree',
  title: 'Pages by skip/limit agree with the unpaged list',
  run(exchange, context, facts: PageFacts) {
    const page = recordsOf(exchange);
    const reference = recordsOf(facts.reference);
    if (!isSuccess(exchange) || !page) return notAList(exchange);
    if (!reference) return inconclusive('the unpaged reference list was not read');
    const { skip, limit, idField, sortKey } = facts;
    const expected = reference.slice(skip, skip + limit);
    const covered = facts.referenceComplete ? page : page.slice(0, expected.length);
    const ids = (list: Json[]): string[] => list.map((r) => identity(r, idField));
    const [got, want] = [ids(covered), ids(expected)];
    if (got.length === want.length && got.every((id, i) => id === want[i])) return [];
    const op = context.spec.operation(exchange.operationId);
    const keys = (list: Json[]): string => JSON.stringify(list.map((r) => valueAt(r, sortKey)));
    const tiesOnly = got.length === want.length && keys(covered) === keys(expected);
    const at = got.findIndex((id, i) => id !== want[i]);
    return [
      failure(this, exchange, {
        message: tiesOnly
          ? `skip=${skip}&limit=${limit} orders records of equal ${sortKey} differently from the unpaged list`
          : `skip=${skip}&limit=${limit} returned ${got.length} records; position ${at < 0 ? got.length : at} holds ${describeValue(got[at] ?? 'nothing')}, the unpaged list has ${describeValue(want[at] ?? 'nothing')} there`,
        expected: `records ${skip + 1}..${skip + expected.length} of the unpaged list (${want.length} records)`,
        citation: tiesOnly
          ? citeOrder(op)
          : citeOperation(op, 'skip: number of first records to skip; limit: maximum number of records to return.'),
      }),
    ];
  },
});
