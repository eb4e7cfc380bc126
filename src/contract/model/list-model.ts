// What the document says a list operation's parameters mean, as functions of a query: which
// records it selects (each criterion with the check that owns it and its citation), their order,
// and so the exact answer any query must get inside a closed world.
import { Query as Mingo } from 'mingo';
import type { Operation } from '../../spec/index.js';
import { valueAtPath } from '../../shared/field-path.js';
import { compareStrings, compareValues, sortKey } from '../../shared/mongo-order.js';
import { citeOperation, citeParameter, citeParameters } from '../checks/check.js';
import type { Citation } from '../types.js';
import type { ClosedWorld } from './closed-world.js';

export type Row = Record<string, unknown>;
/** A query as sent: parameter names and their text. */
export type Query = Readonly<Record<string, string>>;

interface Rule {
  readonly parameters: (op: Operation) => readonly string[];
  readonly everyAnswer?: true;
}

/**
 * The rules of a list operation's model, each judged by the check of its name: the query
 * parameters of the rule, most particular first (a refused query is the fault of the rule whose
 * parameter the error names, else of the first one sent), and whether it judges every answer or
 * only those of queries that send one of them.
 */
const RULES = {
  'filter-matches': { parameters: () => ['filter'] },
  'sort-order': { parameters: () => ['sortField', 'sortDirection'], everyAnswer: true },
  'inverse-order': { parameters: () => ['inverse'] },
  'type-filter': { parameters: () => ['type'] },
  'boolean-filter': { parameters: (op) => booleanFilters(op) },
  'time-range': { parameters: () => ['from', 'to'] },
  'limit-honoured': { parameters: () => ['limit'], everyAnswer: true },
  'pages-agree': { parameters: () => ['skip', 'limit'] },
  'records-consistent': { parameters: () => [], everyAnswer: true },
} as const satisfies Record<string, Rule>;

/** The checks that judge answers of a list operation against its model. */
export type ModelCheckName = keyof typeof RULES;
export const MODEL_RULES: Readonly<Record<ModelCheckName, Rule>> = RULES;
const NAMES = Object.keys(RULES) as ModelCheckName[];

/** The model checks an operation's answers get: those of the parameters it documents. */
export const modelChecksOf = (op: Operation): ModelCheckName[] => NAMES.filter((name) => MODEL_RULES[name].everyAnswer || MODEL_RULES[name].parameters(op).some((p) => hasParameter(op, p)));

/** The model checks a query's answer says something to. */
export const judgedBy = (op: Operation, query: Query): ModelCheckName[] =>
  modelChecksOf(op).filter((name) => MODEL_RULES[name].everyAnswer || MODEL_RULES[name].parameters(op).some((p) => query[p] !== undefined));

/** One condition a query puts on the records it selects. */
export interface Criterion {
  readonly check: ModelCheckName;
  /** The condition as the query states it, e.g. `type=1 (snmp-trap)`. */
  readonly what: string;
  test(record: Row): boolean;
  readonly citation: Citation;
}

// The text types of `type=1` and `type=2` (spec 4.4; `snmp-trap` is spec 2, `mqtt-message` the document's name).
const TYPES: Readonly<Record<string, string>> = { '1': 'snmp-trap', '2': 'mqtt-message' };

/** A JSON value as text with its object keys sorted: equal records give equal text. */
export function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v as Row).sort(([a], [b]) => (a < b ? -1 : 1))) : v,
  );
}

/** What names a record: its `_id`, or (blocked requests have none) the whole record. */
export function identityOf(record: Row): string {
  return typeof record._id === 'string' ? `_id ${record._id}` : canonical(record);
}

const stamp = (r: Row): number | undefined => (typeof r.timestamp === 'number' ? r.timestamp : undefined);
const filled = (v: unknown): boolean => v !== undefined && v !== null && v !== '';

export const hasParameter = (op: Operation, name: string): boolean => op.parameters.some((p) => p.in === 'query' && p.name === name);
const defaultOf = (op: Operation, name: string): unknown => op.parameters.find((p) => p.name === name)?.schema.default;

/** The boolean filters of an operation (4.6: `ip`, `login`, `uri`, `user`): its boolean query parameters but `inverse`. */
export function booleanFilters(op: Operation): string[] {
  return op.parameters.filter((p) => p.in === 'query' && p.schema.type === 'boolean' && p.name !== 'inverse').map((p) => p.name);
}

/** Whether a filter uses nothing but `{field: value}` equality on top-level fields, the reading the spec's words give. */
function plainEquality(filter: unknown): boolean {
  return typeof filter === 'object' && filter !== null && Object.entries(filter).every(([k, v]) => !k.startsWith('$') && !k.includes('.') && (v === null || typeof v !== 'object'));
}

/** The criteria a query sets on an operation's records. */
export function criteriaOf(op: Operation, query: Query): Criterion[] {
  const criteria: Criterion[] = [];
  const from = query.from === undefined ? undefined : Number(query.from);
  const to = query.to === undefined ? undefined : Number(query.to);
  if (from !== undefined || to !== undefined) {
    criteria.push({
      check: 'time-range',
      what: `${from ?? '-∞'} <= timestamp <= ${to ?? '∞'}`,
      test: (r) => {
        const t = stamp(r);
        return t !== undefined && (from === undefined || t >= from) && (to === undefined || t <= to);
      },
      citation: citeParameters(op, 'from', 'to'),
    });
  }
  if (query.type !== undefined) {
    const type = TYPES[query.type];
    criteria.push({
      check: 'type-filter',
      what: `type=${query.type} (type "${type}")`,
      test: (r) => r.type === type,
      citation: citeOperation(op, 'type: message type, 1 SNMP trap, 2 MQTT message; the text type of an SNMP trap is "snmp-trap" (spec 2).'),
    });
  }
  if (query.filter !== undefined) {
    const filter = JSON.parse(query.filter) as Row;
    const compiled = new Mingo(filter);
    criteria.push({
      check: 'filter-matches',
      what: `filter ${query.filter}`,
      test: (r) => compiled.test(r),
      citation: plainEquality(filter) ? citeOperation(op, 'filter: JSON-encoded filter for the records.') : citeParameter(op, 'filter'),
    });
  }
  for (const field of booleanFilters(op)) {
    if (query[field] !== 'true') continue;
    criteria.push({
      check: 'boolean-filter',
      what: `${field}=true`,
      test: (r) => filled(r[field]),
      citation: citeOperation(op, `${field}: when true, only records with non-empty ${field}.`),
    });
  }
  return criteria;
}

/** The field and direction a query sorts by (the document's defaults where it names none). */
export function sortOf(op: Operation, query: Query): { field: string; direction: 'asc' | 'desc'; inverse: boolean } {
  // 4.6 has no sort parameters; its gap-fill orders by timestamp ascending.
  if (!hasParameter(op, 'sortField')) return { field: 'timestamp', direction: 'asc', inverse: false };
  const field = query.sortField ?? String(defaultOf(op, 'sortField') ?? 'timestamp');
  const direction = (query.sortDirection ?? String(defaultOf(op, 'sortDirection') ?? 'asc')) === 'desc' ? 'desc' : 'asc';
  return { field, direction, inverse: query.inverse === 'true' };
}

/**
 * The order of the answer: negative when `a` comes first. The event log: the sort field in
 * MongoDB order (an array by its smallest element ascending, its largest descending), ties by
 * `_id` in the same direction, all reversed by `inverse`. The block log: timestamp ascending,
 * ties in no documented order (0).
 */
export function compareOf(op: Operation, query: Query, keysOnly = false): (a: Row, b: Row) => number {
  const { field, direction, inverse } = sortOf(op, query);
  const segments = field.split('.');
  const keys = new WeakMap<Row, unknown>();
  const keyOf = (r: Row): unknown => {
    if (!keys.has(r)) keys.set(r, sortKey(valueAtPath(r, segments), direction));
    return keys.get(r);
  };
  const sign = (direction === 'asc' ? 1 : -1) * (inverse ? -1 : 1);
  const ties = hasParameter(op, 'sortField') && !keysOnly;
  return (a, b) => sign * (compareValues(keyOf(a), keyOf(b)) || (ties ? compareStrings(String(a._id), String(b._id)) : 0));
}

export interface ListModel {
  readonly op: Operation;
  readonly world: ClosedWorld;
}

export type Expected = ReturnType<typeof expectedOf>;

/**
 * Select (time bounds, type, filter, boolean filters), order (sort field and direction, `_id`
 * ties, inverse), then drop `skip` records and keep at most `limit` ("maximum number of
 * records": `limit=0` returns none; no `limit`, every record: the document's gap-fill): every
 * record the query selects in order, and the page the answer must be.
 */
export function expectedOf(model: ListModel, query: Query) {
  const criteria = criteriaOf(model.op, query);
  const selected = model.world.records.filter((r) => criteria.every((c) => c.test(r))).sort(compareOf(model.op, query));
  const skip = query.skip === undefined ? 0 : Number(query.skip);
  const limit = query.limit === undefined ? undefined : Number(query.limit);
  return { selected, skip, ...(limit === undefined ? {} : { limit }), page: selected.slice(skip, limit === undefined ? undefined : skip + limit) };
}
