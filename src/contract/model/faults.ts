// An answer of a list operation judged against its model: every fault found, each owned by the
// check of the rule it breaks (checks/model-checks.ts reports each its own). A page in the wrong
// order or with the wrong records is named by the rule it breaks: inverse, direction, ties,
// limit, bounds, skip.
import { isDeepStrictEqual } from 'node:util';
import type { Operation } from '../../spec/index.js';
import { citeOperation, citeParameter, citeParameters, inconclusive, describeValue, citeOrder, type FailureInput } from '../checks/check.js';
import type { Exchange, Inconclusive } from '../types.js';
import { MODEL_RULES, expectedOf, type ListModel, type Expected, criteriaOf, identityOf, type ModelCheckName, type Query, type Row, compareOf, hasParameter, sortOf } from './list-model.js';
import { valueAtPath } from '../../shared/field-path.js';

export type Fault = FailureInput & { readonly check: ModelCheckName };

/** What a model check is told of one answer. */
export interface ModelFacts {
  /** The parameters sent. */
  readonly query: Query;
  /** The model the answer is judged by; absent for the reads that make the world (judged by limit alone). */
  readonly model?: ListModel;
  /** How the two reads of the window differed, for the second one (records-consistent). */
  readonly disagreement?: string;
  /** A read with a limit that answered no record, while this many came without one. */
  readonly emptyBut?: number;
  /** How a failing generated query was found (the seed, its case and its shrinking), added to its findings. */
  readonly found?: string;
}

const STORED = 'the log is stored data (spec 6): a query selects among the same records.';

/** A documented query refused: owned by the check of the parameter the error names, or the most particular one sent. */
function refusalFault(op: Operation, query: Query, exchange: Exchange): Fault {
  const named = (exchange.response?.json as { details?: { name?: unknown }[] } | undefined)?.details?.map((d) => d.name);
  const sent = (Object.entries(MODEL_RULES) as [ModelCheckName, (typeof MODEL_RULES)[ModelCheckName]][]).flatMap(([check, rule]) => rule.parameters(op).filter((name) => query[name] !== undefined).map((name) => [name, check] as const));
  const [name, check] = sent.find(([n]) => named?.includes(n)) ?? sent[0] ?? (['limit', 'limit-honoured'] as const);
  const status = exchange.response?.status ?? 0;
  return { check, message: `a documented query was refused with ${status} (${name}=${query[name] ?? '-'})`, expected: 'a list: every parameter and value sent is documented', citation: citeParameter(op, name) };
}

function judge(model: ListModel, query: Query, records: readonly Row[]): Fault[] {
  const { op, world } = model;
  const faults: Fault[] = [];
  for (const c of criteriaOf(op, query)) {
    const stray = records.filter((r) => !c.test(r));
    if (stray.length === 0) continue;
    faults.push({ check: c.check, message: `${c.what}: ${stray.length} of ${records.length} records do not match it, e.g. ${describeValue(stray[0])}`, expected: `only records with ${c.what}`, citation: c.citation });
  }
  if (faults.length > 0) return faults;
  const known = new Map(world.records.map((r) => [identityOf(r), r]));
  const unknown = records.filter((r) => !known.has(identityOf(r)));
  const changed = records.filter((r) => known.has(identityOf(r)) && !isDeepStrictEqual(r, known.get(identityOf(r))));
  if (unknown.length > 0 || changed.length > 0) {
    const [what, example] = unknown.length > 0 ? [`${unknown.length} records the whole read of the window did not hold`, unknown[0]] : [`${changed.length} records different from the whole read of the window`, changed[0]];
    return [{ check: 'records-consistent', message: `the answer holds ${what}, e.g. ${describeValue(example)}`, expected: 'the records of the window as read whole', citation: citeOperation(op, STORED) }];
  }
  const fault = orderFaultOf(op, query, records) ?? pageFaultOf(model, query, expectedOf(model, query), records);
  return fault ? [fault] : [];
}

/** More records than `limit`: judged without a model, and on a list counted but not parsed. */
function overLimit(op: Operation, query: Query, count: number, counted: boolean): Fault | undefined {
  if (query.limit === undefined || count <= Number(query.limit)) return undefined;
  return { check: 'limit-honoured', message: `limit=${query.limit} returned ${counted ? 'at least ' : ''}${count} records`, expected: `at most ${query.limit} records`, citation: citeParameters(op, 'limit') };
}

const memo = new WeakMap<Exchange, { facts: ModelFacts; judged: readonly Fault[] | Inconclusive }>();

/** Every fault of an answer (computed once per answer and facts), or why it cannot be judged. */
export function faultsOf(op: Operation, exchange: Exchange, facts: ModelFacts): readonly Fault[] | Inconclusive {
  const seen = memo.get(exchange);
  if (seen?.facts === facts) return seen.judged;
  const judged = judgeExchange(op, exchange, facts);
  memo.set(exchange, { facts, judged });
  return judged;
}

function judgeExchange(op: Operation, exchange: Exchange, facts: ModelFacts): readonly Fault[] | Inconclusive {
  const { query } = facts;
  const response = exchange.response;
  if (!response) return inconclusive('no answer');
  const { status } = response;
  if (facts.model && status >= 400 && status < 500 && ![401, 403, 408, 429].includes(status)) return [refusalFault(op, query, exchange)];
  if (status < 200 || status >= 300) return inconclusive(`answered ${status}, not a list`);
  if (response.json === undefined && response.itemsAtLeast !== undefined) {
    const fault = overLimit(op, query, response.itemsAtLeast, true);
    return fault ? [fault] : inconclusive(`the body was not judged whole: ${exchange.error ?? ''}; ${response.itemsAtLeast} record(s) counted`);
  }
  if (!Array.isArray(response.json)) return inconclusive('the answer is not a JSON list');
  const records = response.json.filter((r): r is Row => typeof r === 'object' && r !== null && !Array.isArray(r));
  const faults = facts.model ? judge(facts.model, query, records) : [overLimit(op, query, records.length, false)].filter((f) => f !== undefined);
  if (facts.emptyBut && records.length === 0) {
    faults.push({ check: 'limit-honoured', message: `limit=${query.limit ?? '-'} returned no record; without limit ${facts.emptyBut} came`, expected: `up to ${query.limit ?? '-'} of the ${facts.emptyBut} records`, citation: citeParameters(op, 'limit') });
  }
  if (!facts.disagreement) return faults;
  return [...faults, { check: 'records-consistent', message: `read oldest first and newest first, the window gave different records: ${facts.disagreement}`, expected: 'the same records in both directions', citation: citeOperation(op, STORED) }];
}

/** The index of the first record that should come before the one above it, or -1. */
export function firstDisorder(records: readonly Row[], compare: (a: Row, b: Row) => number): number {
  for (let i = 1; i < records.length; i++) if (compare(records[i - 1] as Row, records[i] as Row) > 0) return i;
  return -1;
}

const isPlain = (v: unknown): boolean => typeof v === 'number' || typeof v === 'string';

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
    return { check: 'inverse-order', message: 'inverse=true returned the records in the order without it', expected, citation: citeParameters(op, 'inverse') };
  }
  if (query.inverse === 'false' && ordered({ ...query, inverse: 'true' })) {
    return { check: 'inverse-order', message: 'inverse=false inverted the order', expected, citation: citeParameters(op, 'inverse') };
  }
  if (query.inverse !== 'true' && ordered({ ...query, sortDirection: direction === 'asc' ? 'desc' : 'asc' })) {
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
    return { check: 'limit-honoured', message: `limit=${expected.limit} returned ${answer.length} records`, expected: `at most ${expected.limit} records`, citation: citeParameters(op, 'limit') };
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
    return { check: 'pages-agree', message: `skip=${query.skip} was ignored`, expected: want, citation: citeParameters(op, 'skip') };
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
    citation: citeParameters(op, 'skip', 'limit'),
  };
}
