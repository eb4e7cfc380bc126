import { charSet, complement, MAX_CODE_UNIT, type CharSet } from './char-set.js';

// The sets JavaScript's regular expressions use for `\s`, `.`, `\d` and `\w`, read from the
// running JavaScript engine itself where they depend on it, so that a translated pattern means
// what the engine would make of it.

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
