import { caseClosure } from './case-orbits.js';
import { complement, type CharSet } from './char-set.js';
import { DIGITS, spaceSet, WORD } from './regex-char-classes.js';
import { readProperty } from './regex-property.js';
import type { RegexReader } from './regex-reader.js';
import { refuse } from './regex-tree.js';

// Escapes (`\n`, `\x41`, `\u{1F600}`, `\d`, `\cJ`…), read the same in and out of classes but for
// `\b` and `\c`: each is a character or a set, what RE2 spells differently being spelled out.

const CONTROL_ESCAPES: Readonly<Record<string, number>> = { t: 9, n: 10, v: 11, f: 12, r: 13 };

/**
 * The escape at the cursor (a backslash) as a character, a class escape's set, or a
 * property escape spelled for RE2. `inClass`: \b is a backspace there, and `\c` takes digits.
 */
export function readEscapedChar(r: RegexReader, inClass: boolean): number | { set: CharSet } | string {
  const e = r.peek(1);
  if (Object.hasOwn(CONTROL_ESCAPES, e)) {
    r.i += 2;
    return CONTROL_ESCAPES[e] as number;
  }
  switch (e) {
    case 'd':
    case 'D':
    case 'w':
    case 'W':
    case 's':
    case 'S': {
      r.i += 2;
      const base = e.toLowerCase() === 'd' ? DIGITS : e.toLowerCase() === 's' ? spaceSet() : r.unicode && r.ignoreCase ? caseClosure(WORD, true) : WORD;
      return { set: e === e.toLowerCase() ? base : complement(base, r.max) };
    }
    case '0':
      if (/[0-9]/.test(r.peek(2))) refuse('octal escapes are not supported');
      r.i += 2;
      return 0;
    case 'c': {
      const letter = r.peek(2);
      if (/[A-Za-z]/.test(letter) || (inClass && !r.unicode && /[0-9_]/.test(letter))) {
        r.i += 3;
        return letter.charCodeAt(0) % 32;
      }
      r.i += 1; // Annex B: a backslash, then the c as a character
      return 0x5c;
    }
    case 'x': {
      const m = /^[0-9a-fA-F]{2}/.exec(r.source.slice(r.i + 2, r.i + 4));
      if (!m) break;
      r.i += 4;
      return parseInt(m[0], 16);
    }
    case 'u':
      return readUnicodeEscape(r) ?? r.identity();
    case 'p':
    case 'P':
      if (r.unicode) return readProperty(r, e === 'P');
      break;
    default:
      if (/[1-9]/.test(e)) refuse('octal escapes are not supported');
  }
  if (inClass && e === 'b') {
    r.i += 2;
    return 8;
  }
  return r.identity();
}

/** \uHHHH (and with `u`, \u{H...} and a pair of escaped surrogates), or undefined when it is not one. */
function readUnicodeEscape(r: RegexReader): number | undefined {
  const rest = r.source.slice(r.i, r.i + 16);
  if (r.unicode) {
    const braced = /^\\u\{([0-9a-fA-F]+)\}/.exec(rest);
    if (braced) {
      r.i += braced[0].length;
      return parseInt(braced[1] as string, 16);
    }
    const pair = /^\\u(d[89ab][0-9a-f]{2})\\u(d[c-f][0-9a-f]{2})/i.exec(rest);
    if (pair) {
      r.i += 12;
      return String(String.fromCharCode(parseInt(pair[1] as string, 16), parseInt(pair[2] as string, 16))).codePointAt(0);
    }
  }
  const four = /^\\u([0-9a-fA-F]{4})/.exec(rest);
  if (!four) return undefined;
  r.i += 6;
  return parseInt(four[1] as string, 16);
}
