// Which rule a page of the right records in the right order, but not the expected ones, breaks:
// limit exceeded, bounds read as exclusive, a default page size, skip ignored, records of the
// selection left out, or the page itself.
import { citeOperation, citeParameter } from '../citations.js';
import { describeValue } from '../checks/check.js';
import type { Fault } from './faults.js';
import { expectedOf, type Expected, type ListModel } from './list-model.js';
import { compareOf, criteriaOf, identityOf, type Query, type Row } from './list-rules.js';

/**
 * The answer is the expected page: as long, each record in the place of one the order does not
 * tell from it (the same record, or a tie of the block log), and no record more often than the
 * selection holds it.
 */
export function pageMatches(model: ListModel, query: Query, expected: Expected, answer: readonly Row[]): boolean {
  if (answer.length !== expected.page.length) return false;
  const compare = compareOf(model.op, query);
  if (answer.some((r, i) => compare(r, expected.page[i] as Row) !== 0)) return false;
  const left = new Map<string, number>();
  for (const r of expected.selected) left.set(identityOf(r), (left.get(identityOf(r)) ?? 0) + 1);
  for (const r of answer) {
    const n = left.get(identityOf(r)) ?? 0;
    if (n === 0) return false;
    left.set(identityOf(r), n - 1);
  }
  return true;
}

const matchesWith = (model: ListModel, query: Query, answer: readonly Row[]) => pageMatches(model, query, expectedOf(model, query), answer);

export function pageFaultOf(model: ListModel, query: Query, expected: Expected, answer: readonly Row[]): Fault | undefined {
  if (pageMatches(model, query, expected, answer)) return undefined;
  const { op } = model;
  const page = `skip=${query.skip ?? '-'}&limit=${query.limit ?? '-'}`;
  const want = `${expected.page.length} records: ${expected.skip} skipped of the ${expected.selected.length} the query selects${expected.limit === undefined ? '' : `, at most ${expected.limit}`}`;
  if (expected.limit !== undefined && answer.length > expected.limit) {
    return { check: 'limit-honoured', message: `limit=${expected.limit} returned ${answer.length} records`, expected: `at most ${expected.limit} records`, citation: citeOperation(op, 'limit: maximum number of records to return.') };
  }
  for (const bound of ['from', 'to'] as const) {
    const at = query[bound];
    if (at === undefined) continue;
    const inward = { ...query, [bound]: String(Number(at) + (bound === 'from' ? 1 : -1)) };
    if (matchesWith(model, inward, answer)) {
      return { check: 'time-range', message: `${bound}=${at} left out the records whose timestamp equals it`, expected: 'bounds that include the records exactly on them', citation: citeParameter(op, bound) };
    }
  }
  if (Number(query.skip ?? 0) > 0 && matchesWith(model, { ...query, skip: '0' }, answer)) {
    return { check: 'pages-agree', message: `skip=${query.skip} was ignored`, expected: want, citation: citeOperation(op, 'skip: number of first records to skip.') };
  }
  const wanted = new Set(expected.page.map(identityOf));
  const got = new Set(answer.map(identityOf));
  const missing = expected.page.filter((r) => !got.has(identityOf(r)));
  const extra = answer.filter((r) => !wanted.has(identityOf(r)));
  // Records of the selection left out, none put in their place: the doing of the most particular
  // selection the query makes; else of a page size kept without limit; else, with no page
  // asked for, of the bounds.
  const leftOut = missing.length > 0 && extra.length === 0 && answer.length === new Set(answer.map(identityOf)).size;
  const criteria = criteriaOf(op, query);
  const particular = [...criteria].reverse().find((c) => c.check !== 'time-range');
  const paged = query.skip !== undefined || query.limit !== undefined;
  const prefix = answer.length < expected.page.length && answer.every((r, i) => identityOf(r) === identityOf(expected.page[i] as Row));
  const owner = leftOut ? (particular ?? (paged ? undefined : criteria[0])) : undefined;
  if (leftOut && !particular && query.limit === undefined && prefix) {
    return { check: 'limit-honoured', message: `without limit only ${answer.length} of ${expected.page.length} records came back`, expected: `every one of the ${expected.page.length} records`, citation: citeParameter(op, 'limit') };
  }
  if (owner) {
    return {
      check: owner.check,
      message: `${owner.what} left out ${missing.length} of the ${expected.page.length} records it selects, e.g. ${describeValue(missing[0])}`,
      expected: `all ${expected.page.length} records with ${owner.what}`,
      citation: owner.citation,
    };
  }
  const at = answer.findIndex((r, i) => expected.page[i] === undefined || identityOf(r) !== identityOf(expected.page[i] as Row));
  const shown = (r: Row | undefined) => (r === undefined ? 'nothing' : describeValue(typeof r._id === 'string' ? r._id : r));
  return {
    check: 'pages-agree',
    message: `${page} returned ${answer.length} records; position ${at < 0 ? answer.length + 1 : at + 1} holds ${shown(answer[at < 0 ? answer.length : at])}, the model has ${shown(expected.page[at < 0 ? answer.length : at])} there`,
    expected: want,
    citation: citeOperation(op, 'skip: number of first records to skip; limit: maximum number of records to return.'),
  };
}
