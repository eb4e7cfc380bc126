import { Context } from 'mingo/core';
import {
  $all, $and, $elemMatch, $eq, $exists, $gt, $gte, $in, $lt, $lte, $ne, $nin, $nor, $not, $or, $regex, $size,
} from 'mingo/operators/query';
import { Query } from 'mingo/query';
import { resolve } from 'mingo/util';
import type { Filter } from './filter-check.js';

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

/**
 * A mingo context that knows only the allowed operators ($options is read by $regex), so an
 * operator that slipped past the checks is still refused by mingo itself.
 */
export const filterContext = Context.init({
  query: { $all, $and, $elemMatch, $eq, $exists, $gt, $gte, $in: scalarIn, $lt, $lte, $ne, $nin: scalarNin, $nor, $not, $or, $regex, $size },
});

/** Compiles a checked filter once into a predicate over records. */
export function compileFilter(filter: Filter): (record: object) => boolean {
  const query = new Query(filter, { context: filterContext });
  return (record) => query.test(record as Record<string, unknown>);
}
