// Small readers over response bodies shared by the meaning checks.
import { valueAtPath } from '../../shared/field-path.js';
import { compareValues, sortKey } from '../../shared/mongo-order.js';
import type { Exchange } from '../types.js';

export type Json = Record<string, unknown>;

/**
 * The list a check of a filtered or paged answer compares with (same query, no filter or page,
 * an explicit large limit), and whether it holds every record the server has.
 */
export interface ReferenceList {
  readonly reference: Exchange;
  readonly referenceComplete: boolean;
}

/** The response body as a list of records, or undefined when it is not a JSON array. */
export function recordsOf(exchange: Exchange | undefined): Json[] | undefined {
  const json = exchange?.response?.json;
  return Array.isArray(json) ? (json.filter((r) => typeof r === 'object' && r !== null) as Json[]) : undefined;
}

export function isSuccess(exchange: Exchange): boolean {
  const status = exchange.response?.status ?? 0;
  return status >= 200 && status < 300;
}

/** Reads a dotted path (`entity.entityName`) from a record. */
export function valueAt(record: unknown, path: string): unknown {
  let at: unknown = record;
  for (const part of path.split('.')) {
    at = typeof at === 'object' && at !== null ? (at as Json)[part] : undefined;
  }
  return at;
}

/**
 * The keys the records sort by on a dotted field, as a MongoDB-style server reads them: an
 * array field by its smallest element ascending and its largest descending.
 */
export function sortKeysOf(records: readonly Json[], field: string, direction: 'asc' | 'desc'): unknown[] {
  const segments = field.split('.');
  return records.map((r) => sortKey(valueAtPath(r, segments), direction));
}

/** Compares strings without regard to case or accents, as a server with a collation might. */
export function compareCollated(a: unknown, b: unknown): number {
  if (typeof a === 'string' && typeof b === 'string') return a.localeCompare(b, 'en', { sensitivity: 'base' });
  return compareValues(a, b);
}

/** The index of the first pair out of order, or -1 when the list is ordered. */
export function firstDisorder(values: readonly unknown[], direction: 'asc' | 'desc', compare = compareValues): number {
  for (let i = 1; i < values.length; i++) {
    const c = compare(values[i - 1], values[i]);
    if (direction === 'asc' ? c > 0 : c < 0) return i;
  }
  return -1;
}

export function distinctCount(values: readonly unknown[]): number {
  return new Set(values.map((v) => JSON.stringify(v))).size;
}

export function describeValue(v: unknown): string {
  const text = JSON.stringify(v) ?? 'undefined';
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
