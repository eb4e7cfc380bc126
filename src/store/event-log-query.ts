import { Query } from 'mingo/query';
import type { EventLogRecord } from '../spec/types.js';
import type { FilterLimits } from '../spec/filter-limits.js';
import { filterProblem, type Filter } from './filter-check.js';
import { filterContext } from './filter-match.js';

/** An event log query in the store's terms: valid values (the server makes them of getEventLog's parameters). */
export interface EventLogQuery {
  /** Only records of this `type` (`type=1` is snmp-trap, `type=2` mqtt-message). */
  readonly type?: EventLogRecord['type'];
  /** Inclusive bounds on `timestamp`, in ms. */
  readonly from?: number;
  readonly to?: number;
  /** A MongoDB-style query that passed `filterProblem`; only such filters may be given. */
  readonly filter?: Filter;
  /** Dotted field path (see fieldPathProblem); default `timestamp`. */
  readonly sortField?: string;
  /** Default `asc`. */
  readonly sortDirection?: 'asc' | 'desc';
  /** Reverses the order that sortField and sortDirection give. */
  readonly inverse?: boolean;
  readonly skip?: number;
  /** Absent: every matching record. */
  readonly limit?: number;
}

/**
 * Why a filter (parsed from its JSON text) cannot be used, or undefined when it can: the
 * filter language's rules and the document's limits (filterProblem), and mingo compiling it.
 */
export function filterValueProblem(value: unknown, limits: FilterLimits): string | undefined {
  const problem = filterProblem(value, limits);
  if (problem) return problem;
  try {
    // The store compiles it again per request; this proves that it compiles.
    new Query(value as Filter, { context: filterContext });
  } catch (e) {
    return `is not a valid filter: ${(e as Error).message}`;
  }
  return undefined;
}
