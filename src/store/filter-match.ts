import { Context } from 'mingo/core';
import {
  $all, $and, $elemMatch, $eq, $exists, $gt, $gte, $in, $lt, $lte, $ne, $nin, $nor, $not, $or, $regex, $size,
} from 'mingo/operators/query';
import { Query } from 'mingo/query';
import { resolve } from 'mingo/util';
import type { Filter } from './filter-check.js';
import { linearRegex } from './linear-regex.js';

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
const scalarNin: typeof $nin = (selector, value, options) => {
  if (!Array.isArray(value) || !value.every(isScalar)) return $nin(selector, value, options);
  const isIn = scalarIn(selector, value, options);
  return (obj) => !isIn(obj);
};

const MATCHED = [''];

/**
 * $regex on the linear-time engine (linear-regex.ts) instead of JavaScript's backtracking
 * one, with the same answers. mingo hands every $regex (with its $options, also under $not,
 * $elemMatch and $all) over as a RegExp it built and never ran; its own $regex then applies
 * it to the field (to each element of an array) through `exec`, which is what is replaced.
 * JSON gives no other way to a regex: a RegExp value in $in or $all cannot be written.
 */
const linearRegexOperator: typeof $regex = (selector, value, options) => {
  const { source, flags } = value as RegExp;
  const compiled = linearRegex(source, flags);
  if (!compiled.ok) throw new Error(`regex ${compiled.problem}`);
  const { test } = compiled.regex;
  const exec = (text: string) => (test(text) ? MATCHED : null);
  return $regex(selector, { exec } as unknown as RegExp, options);
};

/**
 * A mingo context that knows only the allowed operators ($options is read by $regex), so an
 * operator that slipped past the checks is still refused by mingo itself.
 */
export const filterContext = Context.init({
  query: {
    $all, $and, $elemMatch, $eq, $exists, $gt, $gte, $in: scalarIn, $lt, $lte, $ne, $nin: scalarNin, $nor, $not, $or, $regex: linearRegexOperator, $size,
  },
});

type Answer = 'yes' | 'no' | 'ask-mingo';

/**
 * `{"a.b": "x"}` against one record without mingo, where the answer is plain: the path runs
 * through objects only and ends at a string, number, boolean or nothing. Arrays (an array
 * field matches if an element does) and objects at the end are left to mingo.
 */
function scalarEquality(segments: readonly string[], wanted: string | number | boolean) {
  return (record: object): Answer => {
    let value: unknown = record;
    for (const segment of segments) {
      if (value === null || value === undefined) return 'no';
      if (typeof value !== 'object' || Array.isArray(value)) return 'ask-mingo';
      value = (value as Record<string, unknown>)[segment];
    }
    if (value !== null && (typeof value === 'object' || typeof value === 'function')) return 'ask-mingo';
    return value === wanted ? 'yes' : 'no';
  };
}

/**
 * For a filter that is only fields equal to strings, numbers or booleans (the commonest kind,
 * e.g. `{"payload.trapOid": "1.3.6.1.6.3.1.1.5.3"}`), a predicate that answers most records
 * without mingo, which costs about a microsecond a record; undefined for any other filter.
 */
function scalarEqualities(filter: Filter): ((record: object) => Answer) | undefined {
  const entries = Object.entries(filter);
  if (entries.length === 0) return undefined;
  const conditions: ((record: object) => Answer)[] = [];
  for (const [path, value] of entries) {
    if (path.startsWith('$') || !(typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')) return undefined;
    conditions.push(scalarEquality(path.split('.'), value));
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
  const query = new Query(filter, { context: filterContext });
  const test = (record: object) => query.test(record as Record<string, unknown>);
  const quick = scalarEqualities(filter);
  if (!quick) return test;
  return (record) => {
    const answer = quick(record);
    return answer === 'ask-mingo' ? test(record) : answer === 'yes';
  };
}
