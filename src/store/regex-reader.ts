import { caseClosure } from './case-orbits.js';
import { MAX_CODE_POINT, MAX_CODE_UNIT, type CharSet } from './char-set.js';

// The cursor over a regex's source, with the flags that change how it reads: shared by the
// parsing of the regex's structure (regex-parse.ts), its classes and its escapes.

export class RegexReader {
  /** Where the reading is in `source`. */
  i = 0;
  readonly unicode: boolean;
  readonly ignoreCase: boolean;
  readonly dotAll: boolean;
  /** The largest character: a code point with `u`, else a code unit. */
  readonly max: number;

  constructor(
    readonly source: string,
    flags: string,
  ) {
    this.unicode = flags.includes('u');
    this.ignoreCase = flags.includes('i');
    this.dotAll = flags.includes('s');
    this.max = this.unicode ? MAX_CODE_POINT : MAX_CODE_UNIT;
  }

  peek(offset = 0): string {
    return this.source[this.i + offset] ?? '';
  }

  /** One literal character: a code point with `u`, else a code unit. */
  char(): number {
    const c = this.unicode ? (this.source.codePointAt(this.i) as number) : this.source.charCodeAt(this.i);
    this.i += c > 0xffff ? 2 : 1;
    return c;
  }

  /** An identity escape: the character after the backslash. */
  identity(): number {
    this.i += 1;
    return this.char();
  }

  /** The set with the `i` rules applied, when the regex has them. */
  caseless(set: CharSet): CharSet {
    return this.ignoreCase ? caseClosure(set, this.unicode) : set;
  }
}
