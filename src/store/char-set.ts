/**
 * Sets of characters as sorted, disjoint inclusive ranges [lo0, hi0, lo1, hi1, ...], and the
 * sets JavaScript's regular expressions use (`\s`, `.`, case-insensitive equivalence), read
 * from the running JavaScript engine itself so that a translated pattern means what the
 * engine would make of it. Characters are code units without the `u` flag, code points with it.
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

/** The characters up to `max` (a small range: the BMP) that a one-character JavaScript regex matches. */
function setOf(test: RegExp, max: number): CharSet {
  const pairs: number[] = [];
  for (let c = 0; c <= max; c++) {
    if (!test.test(String.fromCharCode(c))) continue;
    if (pairs.length > 0 && pairs[pairs.length - 1] === c - 1) pairs[pairs.length - 1] = c;
    else pairs.push(c, c);
  }
  return pairs;
}

let whiteSpace: CharSet | undefined;
let lineTerminators: CharSet | undefined;

/** `\s`: JavaScript's white space and line terminators (all in the BMP). */
export const spaceSet = (): CharSet => (whiteSpace ??= setOf(/^\s$/, MAX_CODE_UNIT));
/** What `.` without the `s` flag leaves out: the line terminators (all in the BMP). */
export const lineTerminatorSet = (): CharSet => (lineTerminators ??= complement(setOf(/^.$/, MAX_CODE_UNIT), MAX_CODE_UNIT));
export const DIGITS: CharSet = [0x30, 0x39];
export const WORD: CharSet = charSet([0x30, 0x39, 0x41, 0x5a, 0x5f, 0x5f, 0x61, 0x7a]);

/** The classes of characters that the `i` flag makes equal (each with more than one member). */
interface CaseOrbits {
  /** The class of each character that has one. */
  readonly orbitOf: ReadonlyMap<number, readonly number[]>;
  /** Those characters, sorted. */
  readonly cased: readonly number[];
}

/**
 * The `i` classes as the engine decides them: candidates share an upper- or lower-case form,
 * and each pair is confirmed by a one-character regex. Without `u` JavaScript compares
 * upper-case forms of code units; with `u`, simple case folding of code points (all cased
 * ones lie below U+20000). Built once per mode: at once on first use, or beforehand in
 * steps by warmCaseOrbits (the whole takes a few hundred ms).
 */
export function caseOrbits(unicode: boolean): CaseOrbits {
  const built = orbitsByMode.get(unicode);
  if (built) return built;
  const steps = orbitSteps(unicode);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** Builds both modes' classes in steps of at most `sliceMs`, letting other work run between them. */
export async function warmCaseOrbits(sliceMs: number, now: () => number = () => performance.now()): Promise<void> {
  for (const unicode of [false, true]) {
    const steps = orbitSteps(unicode);
    let step = steps.next();
    while (!step.done && !orbitsByMode.has(unicode)) {
      const start = now();
      while (!step.done && now() - start < sliceMs) step = steps.next();
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}

const orbitsByMode = new Map<boolean, CaseOrbits>();
const building = new Map<boolean, Generator<void, CaseOrbits, void>>();

/** The build of one mode's classes, shared by whoever asks first and later: yields every few hundred characters. */
function orbitSteps(unicode: boolean): Generator<void, CaseOrbits, void> {
  let steps = building.get(unicode);
  if (!steps) {
    steps = buildOrbits(unicode);
    building.set(unicode, steps);
  }
  return steps;
}

function* buildOrbits(unicode: boolean): Generator<void, CaseOrbits, void> {
  const max = unicode ? 0x1ffff : MAX_CODE_UNIT;
  const buckets = new Map<string, number[]>();
  const add = (key: string, c: number) => {
    const bucket = buckets.get(key);
    if (bucket) bucket.push(c);
    else buckets.set(key, [c]);
  };
  for (let c = 0; c <= max; c++) {
    if ((c & 511) === 511) yield;
    if (!unicode && c >= 0xd800 && c <= 0xdfff) continue;
    const s = String.fromCodePoint(c);
    const upper = s.toUpperCase();
    const lower = s.toLowerCase();
    if (upper === s && lower === s) continue;
    add(`u${upper}`, c);
    add(`l${lower}`, c);
    // The character's own single-character forms belong with it.
    for (const form of [upper, lower]) {
      const f = form.codePointAt(0) as number;
      if (form !== s && form.length === String.fromCodePoint(f).length) add(`u${upper}`, f);
    }
  }
  const parent = new Map<number, number>();
  const find = (c: number): number => {
    let root = c;
    while (parent.has(root) && parent.get(root) !== root) root = parent.get(root) as number;
    parent.set(c, root);
    return root;
  };
  const flags = unicode ? 'iu' : 'i';
  const escape = (c: number) => (unicode ? `\\u{${c.toString(16)}}` : `\\u${c.toString(16).padStart(4, '0')}`);
  let checked = 0;
  for (const bucket of buckets.values()) {
    if ((++checked & 63) === 0) yield;
    const members = [...new Set(bucket)];
    for (let a = 0; a < members.length; a++) {
      for (let b = a + 1; b < members.length; b++) {
        const [x, y] = [members[a] as number, members[b] as number];
        if (find(x) === find(y)) continue;
        if (new RegExp(`^${escape(x)}$`, flags).test(String.fromCodePoint(y))) parent.set(find(x), find(y));
      }
    }
  }
  const classes = new Map<number, number[]>();
  for (const c of parent.keys()) {
    const root = find(c);
    const members = classes.get(root);
    if (members) members.push(c);
    else classes.set(root, [c]);
  }
  const orbitOf = new Map<number, readonly number[]>();
  for (const members of classes.values()) {
    if (members.length < 2) continue;
    members.sort((a, b) => a - b);
    for (const c of members) orbitOf.set(c, members);
  }
  const orbits = { orbitOf, cased: [...orbitOf.keys()].sort((a, b) => a - b) };
  orbitsByMode.set(unicode, orbits);
  return orbits;
}

/** The set with every character that the `i` flag makes equal to one of its members. */
export function caseClosure(set: CharSet, unicode: boolean): CharSet {
  const { orbitOf, cased } = caseOrbits(unicode);
  const extra: number[] = [];
  for (let k = 0; k < set.length; k += 2) {
    // The cased characters in this range: from the first one not below its start.
    let lo = 0;
    let hi = cased.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cased[mid] as number) < (set[k] as number)) lo = mid + 1;
      else hi = mid;
    }
    for (let j = lo; j < cased.length && (cased[j] as number) <= (set[k + 1] as number); j++) {
      for (const c of orbitOf.get(cased[j] as number) as readonly number[]) extra.push(c, c);
    }
  }
  return extra.length === 0 ? set : union(set, extra);
}
