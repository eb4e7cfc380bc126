import { RE2JS } from 're2js';

/**
 * A filter's `$regex`, compiled by RE2 (re2js) in RE2's own syntax: matching takes time linear
 * in the text whatever the pattern. `$options` maps to RE2's flags; `u` is accepted and changes
 * nothing, since RE2 always matches code points.
 */
const FLAGS: Readonly<Record<string, number>> = { i: RE2JS.CASE_INSENSITIVE, m: RE2JS.MULTILINE, s: RE2JS.DOTALL, u: 0 };

/**
 * The largest program a pattern may compile to (RE2 instructions). The matching cost per
 * character grows with it, and the document's length limit alone lets repetition counts
 * multiply it (`.{0,1000}` is 2,000 instructions); RE2's own limit is over a million.
 */
const MAX_PROGRAM = 3_000;

export function regexOptionsProblem(options: string): string | undefined {
  for (let i = 0; i < options.length; i++) {
    const flag = options[i] as string;
    if (!Object.hasOwn(FLAGS, flag)) return `$options may hold only the flags ${Object.keys(FLAGS).join(', ')}, not "${flag}"`;
    if (options.indexOf(flag) !== i) return `$options repeats the flag "${flag}"`;
  }
  return undefined;
}

// The last few compiled (a filter is checked, then compiled again to run); each keeps the
// automaton it builds as it matches.
const cache = new Map<string, RE2JS | string>();
const CACHE_SIZE = 8;

/** The compiled regex, or why it is refused (a problem that reads after "regex"). Never throws. */
export function compileRegex(pattern: string, options: string): RE2JS | string {
  const key = `${options}/${pattern}`;
  let compiled = cache.get(key);
  if (compiled !== undefined) return compiled;
  const flags = [...options].reduce((all, flag) => all | (FLAGS[flag] ?? 0), 0);
  try {
    const regex = RE2JS.compile(pattern, flags);
    const size = regex.programSize();
    compiled = size > MAX_PROGRAM ? `is too complex: it compiles to ${size} RE2 instructions, more than ${MAX_PROGRAM} (repetition counts multiply)` : regex;
  } catch (e) {
    compiled = `is not valid RE2 syntax: ${(e as Error).message}`;
  }
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(key, compiled);
  return compiled;
}
