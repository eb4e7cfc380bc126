// Which rule an answer in the wrong order breaks: inverse ignored or misapplied, the direction
// swapped, ties not by `_id`, or the sort field itself; a spec rule or the document's gap-fill.
import type { Operation } from '../../spec/index.js';
import { citeOperation, citeParameter } from '../citations.js';
import { citeOrder, describeValue } from '../checks/check.js';
import { valueAtPath } from '../../shared/field-path.js';
import { compareOf, hasParameter, sortOf, type Query, type Row } from './list-rules.js';
import type { Fault } from './faults.js';

/** The index of the first record that should come before the one above it, or -1. */
export function firstDisorder(records: readonly Row[], compare: (a: Row, b: Row) => number): number {
  for (let i = 1; i < records.length; i++) if (compare(records[i - 1] as Row, records[i] as Row) > 0) return i;
  return -1;
}

const isPlain = (v: unknown): boolean => typeof v === 'number' || typeof v === 'string';
const flip = (d: 'asc' | 'desc') => (d === 'asc' ? 'desc' : 'asc');

export function orderFaultOf(op: Operation, query: Query, answer: readonly Row[]): Fault | undefined {
  const at = firstDisorder(answer, compareOf(op, query));
  if (at < 0) return undefined;
  const { field, direction } = sortOf(op, query);
  const [a, b] = [answer[at - 1] as Row, answer[at] as Row];
  const [va, vb] = [valueAtPath(a, field.split('.')), valueAtPath(b, field.split('.'))];
  const pair = `record ${at} (${field} ${describeValue(va)}) comes before record ${at + 1} (${field} ${describeValue(vb)})`;
  const expected = `records ordered by ${field}, ${direction === 'asc' ? 'ascending' : 'descending'}${query.inverse === 'true' ? ', inverted' : ''}`;
  if (!hasParameter(op, 'sortField')) return { check: 'sort-order', message: pair, expected, citation: citeOrder(op) };
  const ordered = (q: Query) => firstDisorder(answer, compareOf(op, q)) < 0;
  // Only records of equal keys out of order: the tie rule (the document's), whatever else the query sets.
  if (firstDisorder(answer, compareOf(op, query, true)) < 0) {
    return { check: 'sort-order', message: `records of equal ${field} are not ordered by _id: ${describeValue(a._id)} comes before ${describeValue(b._id)}`, expected, citation: citeParameter(op, 'sortField') };
  }
  if (query.inverse === 'true' && ordered({ ...query, inverse: 'false' })) {
    return { check: 'inverse-order', message: 'inverse=true returned the records in the order without it', expected, citation: citeOperation(op, 'inverse: whether to invert the order of items.') };
  }
  if (query.inverse === 'false' && ordered({ ...query, inverse: 'true' })) {
    return { check: 'inverse-order', message: 'inverse=false inverted the order', expected, citation: citeOperation(op, 'inverse: whether to invert the order of items.') };
  }
  if (query.inverse !== 'true' && ordered({ ...query, sortDirection: flip(direction) })) {
    const sent = query.sortDirection === undefined ? 'without sortDirection (asc by default)' : `sortDirection=${direction}`;
    return {
      check: 'sort-order',
      message: `${sent}: the records come in ${direction === 'asc' ? 'descending' : 'ascending'} order`,
      expected,
      citation: citeParameter(op, 'sortDirection', 'sortDirection: asc or desc; the first listed (asc) is the default.'),
    };
  }
  // The default field, dotted paths, missing fields and MongoDB's order of types are the document's.
  const documents = query.sortField === undefined || field.includes('.') || !isPlain(va) || !isPlain(vb) || typeof va !== typeof vb;
  return {
    check: 'sort-order',
    message: pair,
    expected,
    citation: documents ? citeOrder(op) : citeOperation(op, 'sortField: name of the field used to sort; sortDirection: asc or desc.'),
  };
}
