import { union, type CharSet } from './char-set.js';
import { lineTerminatorSet } from './regex-char-classes.js';
import { refuse, type Node } from './regex-tree.js';

// The tree of a parsed regex spelled in RE2 syntax: every set as explicit ranges, anchors as
// JavaScript means them (RE2's own `.`, `\s`, `(?i)` and `(?m)` differ), so the pattern needs no
// RE2 flags.

/** Where a surrogate code unit (U+D800..U+DFFF) goes, without the `u` flag: U+F0000 + (unit - 0xD800). */
export const SURROGATE_SHIFT = 0xf0000 - 0xd800;

/** A character in RE2 syntax. */
export const hex = (c: number) => `\\x{${c.toString(16)}}`;

export class RegexEmitter {
  /** The RE2 pattern uses lookbehinds (RE2JS.LOOKBEHINDS). */
  lookbehinds = false;
  readonly #unicode: boolean;
  readonly #multiline: boolean;

  constructor(flags: string) {
    this.#unicode = flags.includes('u');
    this.#multiline = flags.includes('m');
  }

  /** The whole pattern, from its top-level alternatives. */
  pattern(alternatives: readonly Node[][]): string {
    return this.#emitAlternatives(alternatives, true, true);
  }

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
      this.lookbehinds = true;
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
