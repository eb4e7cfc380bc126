import { Context } from 'mingo/core';
import {
  $all, $and, $elemMatch, $eq, $exists, $gt, $gte, $in, $lt, $lte, $ne, $nor, $not, $or, $regex, $size,
} from 'mingo/operators/query';
import { Query } from 'mingo/query';
import { resolve } from 'mingo/util';
import type { FilterLimits } from '../spec/limits.js';
import { filterProblem, type Filter } from './filter-check.js';
import { compileRegex } from './filter-regex.js';

const isScalar = (v: unknown) => v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';

/**
 * $in over a list of JSON scalars as a Set lookup: mingo compares each value with every list
 * item, which makes a long list cost seconds over a large log. Same answers as mingo's $in
 * (a missing or null field matches a null item; an array field matches if any element does).
 */
const scalarIn: typeof $in = (selector, value, options) => {
  if (!Array.isArray(value) || !value.every(isScalar)) return $in(selector, value, options);
  const items = new Set<unknown>(value);
  const hasNull = items.has(null);
  return (obj) => {
    const v = resolve(obj, selector, { unwrapArray: true });
    if (v === null || v === undefined) return hasNull;
    return Array.isArray(v) ? v.some((x) => items.has(x)) : items.has(v);
  };
};
const scalarNin: typeof $in = (selector, value, options) => {
  const isIn = scalarIn(selector, value, options);
  return (obj) => !isIn(obj);
};

const MATCHED = [''];
/** What a `$regex` with its `$options` becomes for mingo, which would build a JavaScript RegExp of it (see forMingo). */
const RE2_REGEX = '$re2Regex';

/**
 * `$regex` matched by RE2 (filter-regex.ts): mingo's own $regex operator (also under $not,
 * $elemMatch and $all, on each element of an array), given RE2's test as the `exec` it calls.
 */
const re2RegexOperator: typeof $regex = (selector, value, options) => {
  const { pattern, flags } = value as unknown as { pattern: string; flags: string };
  const regex = compileRegex(pattern, flags);
  if (typeof regex === 'string') throw new Error(`regex ${regex}`);
  const exec = (text: string) => (regex.test(text) ? MATCHED : null);
  return $regex(selector, { exec } as unknown as RegExp, options);
};

/**
 * A mingo context that knows only the allowed operators, so an operator that slipped past the
 * checks is still refused by mingo itself.
 */
const filterContext = Context.init({
  query: {
    $all, $and, $elemMatch, $eq, $exists, $gt, $gte, $in: scalarIn, $lt, $lte, $ne, $nin: scalarNin, $nor, $not, $or, [RE2_REGEX]: re2RegexOperator, $size,
  },
});

/** The filter as mingo runs it: each `$regex` and its `$options` as one RE2_REGEX operator. */
function forMingo(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(forMingo);
  if (value === null || typeof value !== 'object') return value;
  const ops = value as Record<string, unknown>;
  return Object.fromEntries(
    Object.entries(ops).flatMap(([key, v]) => {
      if (key === '$options') return [];
      return [key === '$regex' ? [RE2_REGEX, { pattern: v, flags: ops.$options ?? '' }] : [key, forMingo(v)]];
    }),
  );
}

type Answer = 'yes' | 'no' | 'ask-mingo';
type Wanted = string | number | boolean | { readonly test: (text: string) => boolean };

/** `{"a.b": "x"}` or `{"a.b": {"$regex": "x"}}` against one record without mingo where the path runs through objects only to a scalar. */
function plainCondition(segments: readonly string[], wanted: Wanted) {
  return (record: object): Answer => {
    let value: unknown = record;
    for (const segment of segments) {
      if (value === null || value === undefined) return 'no';
      if (typeof value !== 'object' || Array.isArray(value)) return 'ask-mingo';
      value = (value as Record<string, unknown>)[segment];
    }
    if (value !== null && (typeof value === 'object' || typeof value === 'function')) return 'ask-mingo';
    if (typeof wanted !== 'object') return value === wanted ? 'yes' : 'no';
    return typeof value === 'string' && wanted.test(value) ? 'yes' : 'no';
  };
}

/** What a field's condition asks when it is plain: a scalar, or a regex alone. */
function plainWanted(value: unknown): Wanted | undefined {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (value === null || typeof value !== 'object' || !Object.keys(value).every((k) => k === '$regex' || k === '$options')) return undefined;
  const { $regex: pattern, $options: options = '' } = value as Record<string, unknown>;
  const regex = typeof pattern === 'string' && typeof options === 'string' ? compileRegex(pattern, options) : undefined;
  return typeof regex === 'object' ? regex : undefined;
}

/**
 * For a filter that is only fields equal to scalars or matching a regex (the commonest kinds,
 * e.g. `{"payload.trapOid": "1.3.6.1.6.3.1.1.5.3"}`), a predicate that answers most records
 * without mingo, which costs about a microsecond a record; undefined for any other filter.
 */
function plainConditions(filter: Filter): ((record: object) => Answer) | undefined {
  const entries = Object.entries(filter);
  if (entries.length === 0) return undefined;
  const conditions: ((record: object) => Answer)[] = [];
  for (const [path, value] of entries) {
    const wanted = path.startsWith('$') ? undefined : plainWanted(value);
    if (wanted === undefined) return undefined;
    conditions.push(plainCondition(path.split('.'), wanted));
  }
  return (record) => {
    let answer: Answer = 'yes';
    for (const condition of conditions) {
      const one = condition(record);
      if (one === 'no') return 'no';
      if (one === 'ask-mingo') answer = one;
    }
    return answer;
  };
}

/** Compiles a checked filter once into a predicate over records. */
export function compileFilter(filter: Filter): (record: object) => boolean {
  const query = new Query(forMingo(filter) as Filter, { context: filterContext });
  const test = (record: object) => query.test(record as Record<string, unknown>);
  const quick = plainConditions(filter);
  if (!quick) return test;
  return (record) => {
    const answer = quick(record);
    return answer === 'ask-mingo' ? test(record) : answer === 'yes';
  };
}

/** Why a parsed filter cannot be used (the language's rules, the document's limits, mingo compiling it), or undefined. */
export function filterValueProblem(value: unknown, limits: FilterLimits): string | undefined {
  const problem = filterProblem(value, limits);
  if (problem) return problem;
  try {
    compileFilter(value as Filter);
  } catch (e) {
    return `is not a valid filter: ${(e as Error).message}`;
  }
  return undefined;
}
