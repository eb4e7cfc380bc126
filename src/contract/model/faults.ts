// An answer of a list operation judged against its model: every fault found, each owned by the
// check of the rule it breaks. The checks (checks/*.ts) each report their own.
import { isDeepStrictEqual } from 'node:util';
import type { Operation } from '../../spec/index.js';
import { citeOperation, citeParameter } from '../citations.js';
import { inconclusive, describeValue } from '../checks/check.js';
import type { Citation, Exchange, Inconclusive } from '../types.js';
import { expectedOf, type ListModel } from './list-model.js';
import { criteriaOf, identityOf, type ModelCheckName, type Query, type Row } from './list-rules.js';
import { orderFaultOf } from './order-fault.js';
import { pageFaultOf } from './page-fault.js';

export interface Fault {
  readonly check: ModelCheckName;
  readonly message: string;
  readonly expected: string;
  readonly citation: Citation;
}

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

// The check a refused parameter belongs to, most particular first.
const PARAMETER_CHECKS: readonly (readonly [string, ModelCheckName])[] = [
  ['filter', 'filter-matches'],
  ['sortField', 'sort-order'],
  ['inverse', 'inverse-order'],
  ['type', 'type-filter'],
  ['ip', 'boolean-filter'],
  ['login', 'boolean-filter'],
  ['uri', 'boolean-filter'],
  ['user', 'boolean-filter'],
  ['from', 'time-range'],
  ['to', 'time-range'],
  ['skip', 'pages-agree'],
  ['limit', 'limit-honoured'],
  ['sortDirection', 'sort-order'],
];

/** A documented query refused: owned by the check of the parameter the error names, or the most particular one sent. */
function refusalFault(op: Operation, query: Query, exchange: Exchange): Fault {
  const named = (exchange.response?.json as { details?: { name?: unknown }[] } | undefined)?.details?.map((d) => d.name);
  const sent = PARAMETER_CHECKS.filter(([name]) => query[name] !== undefined);
  const [name, check] = sent.find(([n]) => named?.includes(n)) ?? sent[0] ?? ['limit', 'limit-honoured'];
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
  const order = orderFaultOf(op, query, records);
  if (order) return [order];
  const page = pageFaultOf(model, query, expectedOf(model, query), records);
  return page ? [page] : [];
}

/** More records than `limit`: judged without a model, and on a list counted but not parsed. */
function overLimit(op: Operation, query: Query, count: number, counted: boolean): Fault | undefined {
  if (query.limit === undefined || count <= Number(query.limit)) return undefined;
  return { check: 'limit-honoured', message: `limit=${query.limit} returned ${counted ? 'at least ' : ''}${count} records`, expected: `at most ${query.limit} records`, citation: citeOperation(op, 'limit: maximum number of records to return.') };
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
    faults.push({ check: 'limit-honoured', message: `limit=${query.limit ?? '-'} returned no record; without limit ${facts.emptyBut} came`, expected: `up to ${query.limit ?? '-'} of the ${facts.emptyBut} records`, citation: citeOperation(op, 'limit: maximum number of records to return.') });
  }
  if (!facts.disagreement) return faults;
  return [...faults, { check: 'records-consistent', message: `read oldest first and newest first, the window gave different records: ${facts.disagreement}`, expected: 'the same records in both directions', citation: citeOperation(op, STORED) }];
}
