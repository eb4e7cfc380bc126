import {
  caseClosure, charSet, complement, DIGITS, lineTerminatorSet, MAX_CODE_POINT, MAX_CODE_UNIT, spaceSet, union, WORD, type CharSet,
} from './char-set.js';

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

/** Where a surrogate code unit (U+D800..U+DFFF) goes, without the `u` flag: U+F0000 + (unit - 0xD800). */
export const SURROGATE_SHIFT = 0xf0000 - 0xd800;

type Node =
  | { readonly kind: 'set'; readonly set: CharSet; readonly literal?: number }
  | { readonly kind: 'class'; readonly re2: string } // a class with \p{...}, spelled for RE2
  | { readonly kind: 'assert'; readonly what: '^' | '$' | 'b' | 'B' }
  | { readonly kind: 'group'; readonly alternatives: Node[][] }
  | { readonly kind: 'repeat'; readonly node: Node; readonly min: number; readonly max: number };

class Unsupported extends Error {}
const refuse = (problem: string): never => {
  throw new Unsupported(problem);
};

const GENERAL_CATEGORIES: Readonly<Record<string, string>> = {
  Letter: 'L', Cased_Letter: 'LC', Uppercase_Letter: 'Lu', Lowercase_Letter: 'Ll', Titlecase_Letter: 'Lt', Modifier_Letter: 'Lm', Other_Letter: 'Lo',
  Mark: 'M', Combining_Mark: 'M', Nonspacing_Mark: 'Mn', Spacing_Mark: 'Mc', Enclosing_Mark: 'Me',
  Number: 'N', Decimal_Number: 'Nd', digit: 'Nd', Letter_Number: 'Nl', Other_Number: 'No',
  Punctuation: 'P', punct: 'P', Connector_Punctuation: 'Pc', Dash_Punctuation: 'Pd', Open_Punctuation: 'Ps', Close_Punctuation: 'Pe',
  Initial_Punctuation: 'Pi', Final_Punctuation: 'Pf', Other_Punctuation: 'Po',
  Symbol: 'S', Math_Symbol: 'Sm', Currency_Symbol: 'Sc', Modifier_Symbol: 'Sk', Other_Symbol: 'So',
  Separator: 'Z', Space_Separator: 'Zs', Line_Separator: 'Zl', Paragraph_Separator: 'Zp',
  Other: 'C', Control: 'Cc', cntrl: 'Cc', Format: 'Cf', Surrogate: 'Cs', Private_Use: 'Co', Unassigned: 'Cn',
};
const SHORT_CATEGORIES = new Set(Object.values(GENERAL_CATEGORIES));

const CONTROL_ESCAPES: Readonly<Record<string, number>> = { t: 9, n: 10, v: 11, f: 12, r: 13 };

const hex = (c: number) => `\\x{${c.toString(16)}}`;

class Translator {
  #i = 0;
  #lookbehinds = false;
  readonly #unicode: boolean;
  readonly #ignoreCase: boolean;
  readonly #multiline: boolean;
  readonly #dotAll: boolean;
  readonly #max: number;

  constructor(
    private readonly source: string,
    flags: string,
  ) {
    this.#unicode = flags.includes('u');
    this.#ignoreCase = flags.includes('i');
    this.#multiline = flags.includes('m');
    this.#dotAll = flags.includes('s');
    this.#max = this.#unicode ? MAX_CODE_POINT : MAX_CODE_UNIT;
  }

  translate(): Translation {
    const alternatives = this.#alternatives();
    if (this.#i < this.source.length) refuse(`unexpected "${this.source[this.#i]}"`);
    const re2 = this.#emitAlternatives(alternatives, true, true);
    return { ok: true, re2, lookbehinds: this.#lookbehinds, requiredLiteral: alternatives.length === 1 ? longestLiteral(alternatives[0] as Node[]) : [] };
  }

  // ---- Parsing (the source is valid JavaScript; Annex B syntax without `u`) ----

  #peek(offset = 0): string {
    return this.source[this.#i + offset] ?? '';
  }

  #alternatives(): Node[][] {
    const alternatives: Node[][] = [this.#sequence()];
    while (this.#peek() === '|') {
      this.#i += 1;
      alternatives.push(this.#sequence());
    }
    return alternatives;
  }

  #sequence(): Node[] {
    const items: Node[] = [];
    while (this.#i < this.source.length && this.#peek() !== '|' && this.#peek() !== ')') {
      const atom = this.#atom();
      const quantifier = this.#quantifier();
      if (!quantifier) {
        items.push(atom);
        continue;
      }
      if (atom.kind === 'assert') refuse('an assertion cannot be repeated');
      items.push({ kind: 'repeat', node: atom, ...quantifier });
    }
    return items;
  }

  #quantifier(): { min: number; max: number } | undefined {
    const c = this.#peek();
    let q: { min: number; max: number } | undefined;
    if (c === '*') q = { min: 0, max: Infinity };
    else if (c === '+') q = { min: 1, max: Infinity };
    else if (c === '?') q = { min: 0, max: 1 };
    if (q) {
      this.#i += 1;
    } else if (c === '{') {
      const m = /^\{(\d+)(?:(,)(\d*))?\}/.exec(this.source.slice(this.#i, this.#i + 40));
      if (!m) return undefined; // a literal {
      const min = Number(m[1]);
      q = { min, max: m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]) };
      this.#i += m[0].length;
    } else {
      return undefined;
    }
    if (this.#peek() === '?') this.#i += 1; // lazy or greedy: the same for whether it matches
    return q;
  }

  #atom(): Node {
    const c = this.#peek();
    switch (c) {
      case '(':
        return this.#group();
      case '^':
      case '$':
        this.#i += 1;
        return { kind: 'assert', what: c };
      case '.':
        this.#i += 1;
        return { kind: 'set', set: this.#dotAll ? [0, this.#max] : complement(lineTerminatorSet(), this.#max) };
      case '[':
        return this.#class();
      case '\\':
        return this.#escape();
      default: {
        const char = this.#char();
        return { kind: 'set', set: this.#caseless([char, char]), literal: char };
      }
    }
  }

  /** One literal character: a code point with `u`, else a code unit. */
  #char(): number {
    const c = this.#unicode ? (this.source.codePointAt(this.#i) as number) : this.source.charCodeAt(this.#i);
    this.#i += c > 0xffff ? 2 : 1;
    return c;
  }

  #group(): Node {
    const rest = this.source.slice(this.#i, this.#i + 4);
    if (/^\(\?(=|!|<=|<!)/.test(rest)) refuse('lookahead and lookbehind assertions are not supported');
    if (rest.startsWith('(?:')) {
      this.#i += 3;
    } else if (rest.startsWith('(?<')) {
      const end = this.source.indexOf('>', this.#i);
      if (end === -1) refuse('a group name is not closed');
      this.#i = end + 1;
    } else if (rest.startsWith('(?')) {
      refuse(`the group "${rest.slice(0, 3)}" is not supported`);
    } else {
      this.#i += 1;
    }
    const alternatives = this.#alternatives();
    if (this.#peek() !== ')') refuse('a group is not closed');
    this.#i += 1;
    return { kind: 'group', alternatives };
  }

  /** An escape outside a class. */
  #escape(): Node {
    const e = this.#peek(1);
    if (e === 'b' || e === 'B') {
      if (this.#unicode && this.#ignoreCase) refuse('\\b and \\B are not supported with both the i and u options');
      this.#i += 2;
      return { kind: 'assert', what: e };
    }
    if (e === 'k' && this.#peek(2) === '<') refuse('backreferences are not allowed');
    if (/[1-9]/.test(e)) refuse('backreferences are not allowed');
    const escaped = this.#escapedChar(false);
    if (typeof escaped === 'number') return { kind: 'set', set: this.#caseless([escaped, escaped]), literal: escaped };
    if (typeof escaped === 'string') return { kind: 'class', re2: escaped };
    return { kind: 'set', set: this.#caseless(escaped.set) };
  }

  /**
   * The escape at the cursor (a backslash) as a character, a class escape's set, or a
   * property escape spelled for RE2. `inClass`: \b is a backspace there, and `\c` takes digits.
   */
  #escapedChar(inClass: boolean): number | { set: CharSet } | string {
    const e = this.#peek(1);
    if (Object.hasOwn(CONTROL_ESCAPES, e)) {
      this.#i += 2;
      return CONTROL_ESCAPES[e] as number;
    }
    switch (e) {
      case 'd':
      case 'D':
      case 'w':
      case 'W':
      case 's':
      case 'S': {
        this.#i += 2;
        const base = e.toLowerCase() === 'd' ? DIGITS : e.toLowerCase() === 's' ? spaceSet() : this.#unicode && this.#ignoreCase ? caseClosure(WORD, true) : WORD;
        return { set: e === e.toLowerCase() ? base : complement(base, this.#max) };
      }
      case '0':
        if (/[0-9]/.test(this.#peek(2))) refuse('octal escapes are not supported');
        this.#i += 2;
        return 0;
      case 'c': {
        const letter = this.#peek(2);
        if (/[A-Za-z]/.test(letter) || (inClass && !this.#unicode && /[0-9_]/.test(letter))) {
          this.#i += 3;
          return letter.charCodeAt(0) % 32;
        }
        this.#i += 1; // Annex B: a backslash, then the c as a character
        return 0x5c;
      }
      case 'x': {
        const m = /^[0-9a-fA-F]{2}/.exec(this.source.slice(this.#i + 2, this.#i + 4));
        if (!m) break;
        this.#i += 4;
        return parseInt(m[0], 16);
      }
      case 'u':
        return this.#unicodeEscape() ?? this.#identity();
      case 'p':
      case 'P':
        if (this.#unicode) return this.#property(e === 'P');
        break;
      default:
        if (/[1-9]/.test(e)) refuse('octal escapes are not supported');
    }
    if (inClass && e === 'b') {
      this.#i += 2;
      return 8;
    }
    return this.#identity();
  }

  #identity(): number {
    this.#i += 1;
    return this.#char();
  }

  /** \uHHHH (and with `u`, \u{H...} and a pair of escaped surrogates), or undefined when it is not one. */
  #unicodeEscape(): number | undefined {
    const rest = this.source.slice(this.#i, this.#i + 16);
    if (this.#unicode) {
      const braced = /^\\u\{([0-9a-fA-F]+)\}/.exec(rest);
      if (braced) {
        this.#i += braced[0].length;
        return parseInt(braced[1] as string, 16);
      }
      const pair = /^\\u(d[89ab][0-9a-f]{2})\\u(d[c-f][0-9a-f]{2})/i.exec(rest);
      if (pair) {
        this.#i += 12;
        return String(String.fromCharCode(parseInt(pair[1] as string, 16), parseInt(pair[2] as string, 16))).codePointAt(0);
      }
    }
    const four = /^\\u([0-9a-fA-F]{4})/.exec(rest);
    if (!four) return undefined;
    this.#i += 6;
    return parseInt(four[1] as string, 16);
  }

  #property(negated: boolean): string {
    const end = this.source.indexOf('}', this.#i);
    const body = this.source.slice(this.#i + 3, end);
    this.#i = end + 1;
    if (this.#ignoreCase) refuse('\\p{...} and \\P{...} are not supported with the i option');
    const [name, value] = body.includes('=') ? (body.split('=') as [string, string]) : [undefined, body];
    let re2Name: string | undefined;
    if (name === undefined || name === 'General_Category' || name === 'gc') {
      re2Name = SHORT_CATEGORIES.has(value) ? value : GENERAL_CATEGORIES[value];
      if (re2Name === undefined && name === undefined) refuse(`the property \\p{${body}} is not supported (general categories and scripts are)`);
    }
    if (name === 'Script' || name === 'sc') re2Name = value;
    if (re2Name === undefined) refuse(`the property \\p{${body}} is not supported (general categories and scripts are)`);
    return `\\${negated ? 'P' : 'p'}{${re2Name}}`;
  }

  #class(): Node {
    this.#i += 1;
    const negated = this.#peek() === '^';
    if (negated) this.#i += 1;
    const pairs: number[] = [];
    const properties: string[] = [];
    while (this.#peek() !== ']') {
      if (this.#i >= this.source.length) refuse('a class is not closed');
      const first = this.#classAtom();
      if (this.#peek() === '-' && this.#peek(1) !== ']' && this.#peek(1) !== '') {
        const save = this.#i;
        this.#i += 1;
        const second = this.#classAtom();
        if (typeof first === 'number' && typeof second === 'number') {
          pairs.push(first, second);
          continue;
        }
        // Annex B: a class escape on either side makes the - a character.
        this.#i = save;
      }
      if (typeof first === 'number') pairs.push(first, first);
      else if (typeof first === 'string') properties.push(first);
      else pairs.push(...first.set);
    }
    this.#i += 1;
    if (properties.length > 0) {
      const ranges = charSet(pairs);
      let body = properties.join('');
      for (let k = 0; k < ranges.length; k += 2) body += `${hex(ranges[k] as number)}-${hex(ranges[k + 1] as number)}`;
      return { kind: 'class', re2: `[${negated ? '^' : ''}${body}]` };
    }
    const set = this.#caseless(charSet(pairs));
    return { kind: 'set', set: negated ? complement(set, this.#max) : set };
  }

  #classAtom(): number | { set: CharSet } | string {
    if (this.#peek() !== '\\') return this.#char();
    const e = this.#peek(1);
    if (e === 'b') {
      this.#i += 2;
      return 8;
    }
    if (e === '-') {
      this.#i += 2;
      return 0x2d;
    }
    if (e === 'k') return this.#identity();
    return this.#escapedChar(true);
  }

  #caseless(set: CharSet): CharSet {
    return this.#ignoreCase ? caseClosure(set, this.#unicode) : set;
  }

  // ---- Emitting RE2 syntax ----

  /** `leading`/`trailing`: nothing in the pattern can come before/after this part. */
  #emitAlternatives(alternatives: readonly Node[][], leading: boolean, trailing: boolean): string {
    return alternatives.map((items) => items.map((node, k) => this.#emit(node, leading && k === 0, trailing && k === items.length - 1)).join('')).join('|');
  }

  #emit(node: Node, leading: boolean, trailing: boolean): string {
    switch (node.kind) {
      case 'set':
        return this.#emitSet(node.set);
      case 'class':
        return node.re2;
      case 'group':
        return `(?:${this.#emitAlternatives(node.alternatives, leading, trailing)})`;
      case 'repeat': {
        const max = node.max === Infinity ? '' : String(node.max);
        const count = node.min === node.max ? `{${node.min}}` : `{${node.min},${max}}`;
        return `(?:${this.#emit(node.node, false, false)})${count}`;
      }
      case 'assert':
        return this.#emitAssert(node.what, leading, trailing);
    }
  }

  #emitAssert(what: '^' | '$' | 'b' | 'B', leading: boolean, trailing: boolean): string {
    if (what === 'b' || what === 'B') return `\\${what}`;
    if (!this.#multiline) return what === '^' ? '\\A' : '\\z';
    // With `m`, JavaScript's lines end at any line terminator, RE2's only at \n. At the very
    // start (end) of the pattern the terminator before (after) the line can be matched instead.
    const terminator = this.#emitSet(lineTerminatorSet());
    if (what === '^') {
      if (leading) return `(?:\\A|${terminator})`;
      this.#lookbehinds = true;
      return `(?:\\A|(?<=${terminator}))`;
    }
    if (trailing) return `(?:${terminator}|\\z)`;
    return refuse('with the m option, $ is supported only at the end of the pattern or of one of its top-level alternatives');
  }

  #emitSet(set: CharSet): string {
    const ranges = this.#unicode ? set : shiftSurrogates(set);
    if (ranges.length === 0) return `[^\\x{0}-\\x{10ffff}]`;
    if (ranges.length === 2 && ranges[0] === ranges[1]) return hex(ranges[0] as number);
    let body = '';
    for (let k = 0; k < ranges.length; k += 2) {
      const [lo, hi] = [ranges[k] as number, ranges[k + 1] as number];
      body += lo === hi ? hex(lo) : `${hex(lo)}-${hex(hi)}`;
    }
    return `[${body}]`;
  }
}

function longestLiteral(items: readonly Node[]): number[] {
  let best: number[] = [];
  let run: number[] = [];
  for (const node of items) {
    if (node.kind === 'set' && node.literal !== undefined) run.push(node.literal);
    else if (node.kind !== 'assert') run = [];
    if (run.length > best.length) best = run.slice();
  }
  return best;
}

/** Code-unit ranges with the surrogates moved as the matcher moves them in the text. */
function shiftSurrogates(set: CharSet): CharSet {
  const pairs: number[] = [];
  for (let k = 0; k < set.length; k += 2) {
    const [lo, hi] = [set[k] as number, set[k + 1] as number];
    if (hi < 0xd800 || lo > 0xdfff) {
      pairs.push(lo, hi);
      continue;
    }
    if (lo < 0xd800) pairs.push(lo, 0xd7ff);
    if (hi > 0xdfff) pairs.push(0xe000, hi);
    pairs.push(Math.max(lo, 0xd800) + SURROGATE_SHIFT, Math.min(hi, 0xdfff) + SURROGATE_SHIFT);
  }
  return union(pairs);
}

/** The RE2 form of a JavaScript regex that compiles, or why it has none. */
export function translateRegex(source: string, flags: string): Translation {
  try {
    return new Translator(source, flags).translate();
  } catch (e) {
    if (e instanceof Unsupported) return { ok: false, problem: e.message };
    throw e;
  }
}
