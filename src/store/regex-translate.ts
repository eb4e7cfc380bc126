import { RegexEmitter } from './regex-emit.js';
import { parseRegex } from './regex-parse.js';
import { longestLiteral, Unsupported, type Node } from './regex-tree.js';

export { SURROGATE_SHIFT } from './regex-emit.js';

/**
 * Translates a JavaScript regular expression (one `new RegExp(source, flags)` accepts) into
 * RE2 syntax with the same meaning, for a linear-time engine. Every character class, case
 * rule and anchor is spelled out explicitly (RE2's own `.`, `\s`, `(?i)` and `(?m)` differ
 * from JavaScript's), so the result needs no RE2 flags. What RE2 cannot express the same way
 * is refused: backreferences, lookahead and lookbehind, octal escapes, `\b` with both `i` and
 * `u`, `\p{...}` with `i`, and with `m` a `$` that does not end the pattern.
 *
 * Without `u` JavaScript matches UTF-16 code units; the matcher then hands the engine text
 * whose surrogate code units are moved to the private use plane 15 (see `SURROGATE_SHIFT`),
 * so that each code unit is one character for RE2 too, and this translation moves the
 * surrogates of the pattern the same way.
 *
 * The work is in parts: regex-parse.ts reads the source (with regex-class.ts, regex-escapes.ts
 * and regex-property.ts) into a tree (regex-tree.ts), which regex-emit.ts spells for RE2.
 */
export type Translation =
  | {
      readonly ok: true;
      readonly re2: string;
      /** The RE2 pattern uses lookbehinds (RE2JS.LOOKBEHINDS). */
      readonly lookbehinds: boolean;
      /** The longest run of literal characters every match holds (as in the source, before case rules), if any. */
      readonly requiredLiteral: readonly number[];
    }
  | { readonly ok: false; readonly problem: string };

/** The RE2 form of a JavaScript regex that compiles, or why it has none. */
export function translateRegex(source: string, flags: string): Translation {
  try {
    const alternatives = parseRegex(source, flags);
    const emitter = new RegexEmitter(flags);
    const re2 = emitter.pattern(alternatives);
    return { ok: true, re2, lookbehinds: emitter.lookbehinds, requiredLiteral: alternatives.length === 1 ? longestLiteral(alternatives[0] as Node[]) : [] };
  } catch (e) {
    if (e instanceof Unsupported) return { ok: false, problem: e.message };
    throw e;
  }
}
