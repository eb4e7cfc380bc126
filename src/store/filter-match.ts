import { Context } from 'mingo/core';
import { Query } from 'mingo/query';
import {
  $all, $and, $elemMatch, $eq, $exists, $gt, $gte, $in, $lt, $lte, $ne, $nin, $nor, $not, $or, $regex, $size,
} from 'mingo/operators/query';
import type { Filter } from './filter-check.js';

/**
 * A mingo context that knows only the allowed operators ($options is read by $regex), so an
 * operator that slipped past the checks is still refused by mingo itself.
 */
export const filterContext = Context.init({
  query: { $all, $and, $elemMatch, $eq, $exists, $gt, $gte, $in, $lt, $lte, $ne, $nin, $nor, $not, $or, $regex, $size },
});

/** Compiles a checked filter once into a predicate over records. */
export function compileFilter(filter: Filter): (record: object) => boolean {
  const query = new Query(filter, { context: filterContext });
  return (record) => query.test(record as Record<string, unknown>);
}
