import { MAX_CODE_UNIT, union, type CharSet } from './char-set.js';

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
