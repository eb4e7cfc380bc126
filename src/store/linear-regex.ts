import { RE2JS } from 're2js';
import { SURROGATE_SHIFT, translateRegex } from './regex-translate.js';

/**
 * JavaScript regular expressions run on RE2JS, an RE2 engine in JavaScript: its time grows
 * linearly with the text, whatever the pattern (no backtracking). Answers are those of
 * `new RegExp(source, flags).test(text)` as ECMAScript specifies it (with `u`, a match begins
 * only where a code point does; V8 also tries the middle of a surrogate pair, so that `/\B/u`
 * matches "a😀a" there); see regex-translate.ts for what is refused.
 */
export interface LinearRegex {
  test(text: string): boolean;
  /** RE2's measure of the compiled program (instructions); the matching cost per character grows with it. */
  readonly programSize: number;
}

/** `problem` reads after "regex", e.g. "is not supported: backreferences are not allowed". */
export type LinearRegexResult = { readonly ok: true; readonly regex: LinearRegex } | { readonly ok: false; readonly problem: string };

const SURROGATES = /[\uD800-\uDFFF]/;
const SURROGATES_ALL = /[\uD800-\uDFFF]/g;
const shifted = (unit: string) => String.fromCodePoint(unit.charCodeAt(0) + SURROGATE_SHIFT);

/** Compiles `source` with `flags` (which `new RegExp` must accept) for linear-time matching. */
export function compileLinearRegex(source: string, flags: string): LinearRegexResult {
  const translation = translateRegex(source, flags);
  if (!translation.ok) return { ok: false, problem: `is not supported: ${translation.problem}` };
  let re2: RE2JS;
  try {
    re2 = RE2JS.compile(translation.re2, translation.lookbehinds ? RE2JS.LOOKBEHINDS : 0);
  } catch (e) {
    return { ok: false, problem: `cannot be matched in linear time: ${(e as Error).message}` };
  }
  const unicode = flags.includes('u');
  // Without `u`, every UTF-16 code unit is one character, as the translation expects.
  const matches = unicode
    ? (text: string) => re2.test(text)
    : (text: string) => re2.test(SURROGATES.test(text) ? text.replace(SURROGATES_ALL, shifted) : text);
  const literal = translation.requiredLiteral;
  if (!flags.includes('i') || literal.length < 2) return { ok: true, regex: { test: matches, programSize: re2.programSize() } };
  // RE2JS skips texts without a pattern's literal at once, but not with the i rules spelled
  // out as classes. A regex of literal characters alone never backtracks: JavaScript's own
  // engine finds them, with the same i rules.
  const escape = (c: number) => (unicode ? `\\u{${c.toString(16)}}` : `\\u${c.toString(16).padStart(4, '0')}`);
  const required = new RegExp(literal.map(escape).join(''), unicode ? 'iu' : 'i');
  return { ok: true, regex: { test: (text) => required.test(text) && matches(text), programSize: re2.programSize() } };
}

const cache = new Map<string, LinearRegexResult>();
// Few: each keeps the automaton it builds as it matches (RE2JS bounds it to about 8 MiB).
const CACHE_SIZE = 8;

/** compileLinearRegex, remembering the last few (a filter is compiled again for each request). */
export function linearRegex(source: string, flags: string): LinearRegexResult {
  const key = `${flags}/${source}`;
  let result = cache.get(key);
  if (result) return result;
  result = compileLinearRegex(source, flags);
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  cache.set(key, result);
  return result;
}
