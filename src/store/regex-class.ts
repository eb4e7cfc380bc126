import { charSet, complement, type CharSet } from './char-set.js';
import { hex } from './regex-emit.js';
import { readEscapedChar } from './regex-escapes.js';
import type { RegexReader } from './regex-reader.js';
import { refuse, type Node } from './regex-tree.js';

// Character classes (`[...]`): their ranges, Annex B's `-` next to a class escape, and a class
// with `\p{...}`, which only RE2's own class syntax can hold.

/** The class at the cursor (a `[`), `i` rules applied. */
export function readClass(r: RegexReader): Node {
  r.i += 1;
  const negated = r.peek() === '^';
  if (negated) r.i += 1;
  const pairs: number[] = [];
  const properties: string[] = [];
  while (r.peek() !== ']') {
    if (r.i >= r.source.length) refuse('a class is not closed');
    const first = readClassAtom(r);
    if (r.peek() === '-' && r.peek(1) !== ']' && r.peek(1) !== '') {
      const save = r.i;
      r.i += 1;
      const second = readClassAtom(r);
      if (typeof first === 'number' && typeof second === 'number') {
        pairs.push(first, second);
        continue;
      }
      // Annex B: a class escape on either side makes the - a character.
      r.i = save;
    }
    if (typeof first === 'number') pairs.push(first, first);
    else if (typeof first === 'string') properties.push(first);
    else pairs.push(...first.set);
  }
  r.i += 1;
  if (properties.length > 0) {
    const ranges = charSet(pairs);
    let body = properties.join('');
    for (let k = 0; k < ranges.length; k += 2) body += `${hex(ranges[k] as number)}-${hex(ranges[k + 1] as number)}`;
    return { kind: 'class', re2: `[${negated ? '^' : ''}${body}]` };
  }
  const set = r.caseless(charSet(pairs));
  return { kind: 'set', set: negated ? complement(set, r.max) : set };
}

function readClassAtom(r: RegexReader): number | { set: CharSet } | string {
  if (r.peek() !== '\\') return r.char();
  const e = r.peek(1);
  if (e === 'b') {
    r.i += 2;
    return 8;
  }
  if (e === '-') {
    r.i += 2;
    return 0x2d;
  }
  if (e === 'k') return r.identity();
  return readEscapedChar(r, true);
}
