import type { Document } from './load.js';

/**
 * The bounds on the event log's `filter` a client meets (each refused with 400 INVALID_FILTER),
 * as the document's `x-filter-limits` on that parameter states them (the one place they are
 * written). Checks read them from here.
 */
export interface FilterLimits {
  /** Longest filter text, in characters. */
  readonly maxLength: number;
  /** Deepest nesting of objects and arrays. */
  readonly maxDepth: number;
  /** Most object keys plus array items, over the whole filter. */
  readonly maxNodes: number;
  /** Most `$regex` operators in one filter. */
  readonly maxRegexes: number;
  /** Longest `$regex` pattern, in characters. */
  readonly maxRegexLength: number;
}

const KEYS = ['maxLength', 'maxDepth', 'maxNodes', 'maxRegexes', 'maxRegexLength'] as const satisfies readonly (keyof FilterLimits)[];

/**
 * The `x-filter-limits` of getEventLog's `filter` parameter, or undefined when the document
 * has none (a document the kit did not write). Throws when they are there but unusable.
 */
export function filterLimits(document: Document): FilterLimits | undefined {
  const operation = Object.values(document.paths ?? {})
    .flatMap((item) => Object.values(item ?? {}))
    .find((op) => (op as { operationId?: unknown } | null)?.operationId === 'getEventLog') as { parameters?: unknown[] } | undefined;
  const parameter = operation?.parameters?.find((p) => (p as { name?: unknown }).name === 'filter') as Record<string, unknown> | undefined;
  const limits = parameter?.['x-filter-limits'] as Record<string, unknown> | undefined;
  if (limits === undefined) return undefined;
  for (const key of KEYS) {
    const value = limits[key];
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
      throw new Error(`The filter parameter's x-filter-limits needs ${key} as a positive number.`);
    }
  }
  return Object.freeze(Object.fromEntries(KEYS.map((key) => [key, limits[key]]))) as unknown as FilterLimits;
}
