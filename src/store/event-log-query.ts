import { Query } from 'mingo/query';
import type { EventLogQueryParams, EventLogRecord } from '../spec/types.js';
import type { FilterLimits } from '../spec/filter-limits.js';
import { fieldPathProblem } from '../shared/field-path.js';
import { filterProblem, type Filter } from './filter-check.js';
import { filterContext } from './filter-match.js';

/** A checked event log query, in the store's terms (see the getEventLog parameters in the document). */
export interface EventLogQuery {
  /** Only records of this `type` (`type=1` is snmp-trap, `type=2` mqtt-message). */
  readonly type?: EventLogRecord['type'];
  /** Inclusive bounds on `timestamp`, in ms. */
  readonly from?: number;
  readonly to?: number;
  /** A MongoDB-style query that passed `filterProblem`; only such filters may be given. */
  readonly filter?: Filter;
  /** Dotted field path; default `timestamp`. */
  readonly sortField?: string;
  /** Default `asc`. */
  readonly sortDirection?: 'asc' | 'desc';
  /** Reverses the order that sortField and sortDirection give. */
  readonly inverse?: boolean;
  readonly skip?: number;
  /** Absent: every matching record. */
  readonly limit?: number;
}

/** One refused query parameter: its name and what is wrong, for an ErrorDetail. */
export interface QueryProblem {
  readonly name: string;
  readonly problem: string;
}

export type ParseResult<Q> = { readonly ok: true; readonly query: Q } | { readonly ok: false; readonly problems: QueryProblem[] };

/** The getEventLog query parameters as they may arrive: typed by the document, but checked here anyway. */
export type RawEventLogQueryParams = { readonly [K in keyof EventLogQueryParams]?: unknown };

const TYPES: Readonly<Record<string, EventLogRecord['type']>> = { '1': 'snmp-trap', '2': 'mqtt-message' };
const DIGITS = /^[0-9]{1,9}$/;
const INTEGER = /^-?[0-9]{1,16}$/;

/** Reads an integer timestamp given as a number or a decimal string. */
function integerParam(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : undefined;
  if (typeof value === 'string' && INTEGER.test(value)) {
    const n = Number(value);
    return Number.isSafeInteger(n) ? n : undefined;
  }
  return undefined;
}

/** Reads `limit`/`skip`: a string of 1 to 9 digits (the document's pattern), or such a number. */
export function countParam(value: unknown): number | undefined {
  if (typeof value === 'string') return DIGITS.test(value) ? Number(value) : undefined;
  if (typeof value === 'number') return Number.isSafeInteger(value) && value >= 0 && value <= 999_999_999 ? value : undefined;
  return undefined;
}

function booleanParam(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 'true') return true;
  if (value === 'false') return false;
  return undefined;
}

/** Parses the filter text within the document's limits; the problem says why it is refused. */
export function parseFilter(text: unknown, limits: FilterLimits): { ok: true; filter: Filter } | { ok: false; problem: string } {
  if (typeof text !== 'string') return { ok: false, problem: 'must be a JSON-encoded object' };
  if (text.length > limits.maxLength) return { ok: false, problem: `is longer than ${limits.maxLength} characters` };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'is not valid JSON' };
  }
  const problem = filterProblem(value, limits);
  if (problem) return { ok: false, problem };
  try {
    // The store compiles it again per request; this proves that it compiles.
    new Query(value as Filter, { context: filterContext });
  } catch (e) {
    return { ok: false, problem: `is not a valid filter: ${(e as Error).message}` };
  }
  return { ok: true, filter: value as Filter };
}

/**
 * Checks and converts getEventLog query parameters, the filter within the document's limits.
 * Each refusal names the parameter and says what is wrong; `filter` problems come first.
 * Never throws, whatever the input.
 */
export function parseEventLogQuery(params: RawEventLogQueryParams, limits: FilterLimits): ParseResult<EventLogQuery> {
  const problems: QueryProblem[] = [];
  const query: { -readonly [K in keyof EventLogQuery]: EventLogQuery[K] } = {};
  const p = (params ?? {}) as RawEventLogQueryParams;
  const given = (name: keyof EventLogQueryParams): boolean => Object.hasOwn(p, name) && p[name] !== undefined;
  try {
    if (given('filter')) {
      const parsed = parseFilter(p.filter, limits);
      if (parsed.ok) query.filter = parsed.filter;
      else problems.push({ name: 'filter', problem: parsed.problem });
    }
    for (const name of ['from', 'to'] as const) {
      if (!given(name)) continue;
      const n = integerParam(p[name]);
      if (n === undefined) problems.push({ name, problem: 'must be an integer timestamp in milliseconds' });
      else query[name] = n;
    }
    if (query.from !== undefined && query.to !== undefined && query.from > query.to) {
      problems.push({ name: 'from', problem: `must not be greater than "to" (${query.from} > ${query.to})` });
    }
    if (given('inverse')) {
      const b = booleanParam(p.inverse);
      if (b === undefined) problems.push({ name: 'inverse', problem: 'must be true or false' });
      else query.inverse = b;
    }
    for (const name of ['limit', 'skip'] as const) {
      if (!given(name)) continue;
      const n = countParam(p[name]);
      if (n === undefined) problems.push({ name, problem: 'must be a string of digits' });
      else query[name] = n;
    }
    if (given('sortDirection')) {
      if (p.sortDirection === 'asc' || p.sortDirection === 'desc') query.sortDirection = p.sortDirection;
      else problems.push({ name: 'sortDirection', problem: 'must be asc or desc' });
    }
    if (given('sortField')) {
      const field = p.sortField;
      const problem =
        typeof field !== 'string' ? 'must be a field name' : field.length > 200 ? 'must be at most 200 characters' : fieldPathProblem(field);
      if (problem) problems.push({ name: 'sortField', problem });
      else query.sortField = field as string;
    }
    if (given('type')) {
      const type = typeof p.type === 'string' && Object.hasOwn(TYPES, p.type) ? TYPES[p.type] : undefined;
      if (type) query.type = type;
      else problems.push({ name: 'type', problem: 'must be 1 (SNMP trap) or 2 (MQTT message)' });
    }
  } catch (e) {
    // Only a hostile object (a throwing getter) gets here; it is still an answer, not a crash.
    problems.push({ name: 'query', problem: `cannot be read: ${(e as Error).message}` });
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, query };
}
