/**
 * Sets of characters as sorted, disjoint inclusive ranges [lo0, hi0, lo1, hi1, ...].
 * Characters are code units without the `u` flag, code points with it.
 */
export type CharSet = readonly number[];

export const MAX_CODE_UNIT = 0xffff;
export const MAX_CODE_POINT = 0x10ffff;

/** Sorts and merges [lo, hi] pairs (overlapping or adjacent) into a set. */
export function charSet(pairs: readonly number[]): CharSet {
  const ranges: [number, number][] = [];
  for (let i = 0; i < pairs.length; i += 2) ranges.push([pairs[i] as number, pairs[i + 1] as number]);
  ranges.sort((a, b) => a[0] - b[0]);
  const out: number[] = [];
  for (const [lo, hi] of ranges) {
    const last = out.length - 1;
    if (last > 0 && lo <= (out[last] as number) + 1) out[last] = Math.max(out[last] as number, hi);
    else out.push(lo, hi);
  }
  return out;
}

export const union = (...sets: readonly CharSet[]): CharSet => charSet(sets.flat());

/** Every character up to `max` that is not in the set. */
export function complement(set: CharSet, max: number): CharSet {
  const out: number[] = [];
  let next = 0;
  for (let i = 0; i < set.length; i += 2) {
    if ((set[i] as number) > next) out.push(next, (set[i] as number) - 1);
    next = (set[i + 1] as number) + 1;
  }
  if (next <= max) out.push(next, max);
  return out;
}

export function has(set: CharSet, c: number): boolean {
  let lo = 0;
  let hi = set.length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (c < (set[2 * mid] as number)) hi = mid - 1;
    else if (c > (set[2 * mid + 1] as number)) lo = mid + 1;
    else return true;
  }
  return false;
}
