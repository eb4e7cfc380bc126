// MongoDB's sort order for JSON values, the one rule of order for the fake's sort and the runner's
// checks: empty array < null and missing < numbers < strings < objects < arrays < booleans; strings
// by code point (as MongoDB's UTF-8 bytes), objects field by field, arrays element by element. Where
// mingo's comparison departs from this, test/shared/mongo-order.test.ts names each difference.

/** The sort key of a field that holds an empty array: below null and missing. */
export const EMPTY_ARRAY_KEY: unique symbol = Symbol('empty array');

const RANKS: Readonly<Record<string, number>> = { number: 2, string: 3, boolean: 6 };

function rank(value: unknown): number {
  if (value === EMPTY_ARRAY_KEY) return 0;
  if (value === null || value === undefined) return 1;
  if (typeof value === 'object') return Array.isArray(value) ? 5 : 4;
  return RANKS[typeof value] ?? 7;
}

// UTF-16 code units compare like code points once surrogates are moved above U+FFFF.
function codePointUnit(c: number): number {
  if (c >= 0xd800 && c <= 0xdfff) return c + 0x2000;
  if (c >= 0xe000) return c - 0x800;
  return c;
}

export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return codePointUnit(x) < codePointUnit(y) ? -1 : 1;
  }
  return a.length < b.length ? -1 : a.length > b.length ? 1 : 0;
}

/** Compares two values (or sort keys) in MongoDB order; negative, zero or positive. */
export function compareValues(a: unknown, b: unknown): number {
  const ra = rank(a);
  const rb = rank(b);
  if (ra !== rb) return ra < rb ? -1 : 1;
  if (ra === 3) return compareStrings(a as string, b as string);
  if (ra === 4) return compareObjects(a as Record<string, unknown>, b as Record<string, unknown>);
  if (ra === 5) return compareArrays(a as unknown[], b as unknown[]);
  // Numbers, and booleans (false before true).
  return ra === 2 || ra === 6 ? ((a as number) < (b as number) ? -1 : (a as number) > (b as number) ? 1 : 0) : 0;
}

function compareObjects(a: Record<string, unknown>, b: Record<string, unknown>): number {
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  const n = Math.min(ka.length, kb.length);
  for (let i = 0; i < n; i++) {
    const va = a[ka[i] as string];
    const vb = b[kb[i] as string];
    // By the value's type, then the field's name, then the value.
    const c = Math.sign(rank(va) - rank(vb)) || compareStrings(ka[i] as string, kb[i] as string) || compareValues(va, vb);
    if (c !== 0) return c;
  }
  return Math.sign(ka.length - kb.length);
}

function compareArrays(a: readonly unknown[], b: readonly unknown[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const c = compareValues(a[i], b[i]);
    if (c !== 0) return c;
  }
  return Math.sign(a.length - b.length);
}

/** The key a field value sorts by in the given direction (arrays by their smallest or largest element). */
export function sortKey(value: unknown, direction: 'asc' | 'desc'): unknown {
  if (!Array.isArray(value)) return value === undefined ? null : value;
  if (value.length === 0) return EMPTY_ARRAY_KEY;
  let best: unknown = value[0];
  for (let i = 1; i < value.length; i++) {
    const c = compareValues(value[i], best);
    if (direction === 'asc' ? c < 0 : c > 0) best = value[i];
  }
  return best === undefined ? null : best;
}
