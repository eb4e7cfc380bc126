// Small readers over response bodies shared by the meaning checks.
import type { Exchange } from '../types.js';

export type Json = Record<string, unknown>;

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

// MongoDB's order of types: missing/null, numbers, strings, objects, arrays, booleans.
function rank(v: unknown): number {
  if (v === undefined || v === null) return 0;
  if (typeof v === 'number') return 1;
  if (typeof v === 'string') return 2;
  if (Array.isArray(v)) return 4;
  if (typeof v === 'object') return 3;
  return 5;
}

/** Compares two field values the way a MongoDB-style store orders them (strings by code point). */
export function compareValues(a: unknown, b: unknown): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra - rb;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'string' && typeof b === 'string') return a < b ? -1 : a > b ? 1 : 0;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  const sa = JSON.stringify(a);
  const sb = JSON.stringify(b);
  return sa < sb ? -1 : sa > sb ? 1 : 0;
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
