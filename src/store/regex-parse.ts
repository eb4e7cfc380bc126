import { complement } from './char-set.js';
import { lineTerminatorSet } from './regex-char-classes.js';
import { readClass } from './regex-class.js';
import { readEscapedChar } from './regex-escapes.js';
import { RegexReader } from './regex-reader.js';
import { refuse, type Node } from './regex-tree.js';

// The structure of a JavaScript regex (alternatives, groups, quantifiers, atoms) read into the
// tree the translation spells for RE2. The source is valid JavaScript; Annex B syntax without `u`.

/** The top-level alternatives of `source`; throws Unsupported on what RE2 cannot express. */
export function parseRegex(source: string, flags: string): Node[][] {
  const r = new RegexReader(source, flags);
  const alternatives = readAlternatives(r);
  if (r.i < r.source.length) refuse(`unexpected "${r.source[r.i]}"`);
  return alternatives;
}

function readAlternatives(r: RegexReader): Node[][] {
  const alternatives: Node[][] = [readSequence(r)];
  while (r.peek() === '|') {
    r.i += 1;
    alternatives.push(readSequence(r));
  }
  return alternatives;
}

function readSequence(r: RegexReader): Node[] {
  const items: Node[] = [];
  while (r.i < r.source.length && r.peek() !== '|' && r.peek() !== ')') {
    const atom = readAtom(r);
    const quantifier = readQuantifier(r);
    if (!quantifier) {
      items.push(atom);
      continue;
    }
    if (atom.kind === 'assert') refuse('an assertion cannot be repeated');
    items.push({ kind: 'repeat', node: atom, ...quantifier });
  }
  return items;
}

function readQuantifier(r: RegexReader): { min: number; max: number } | undefined {
  const c = r.peek();
  let q: { min: number; max: number } | undefined;
  if (c === '*') q = { min: 0, max: Infinity };
  else if (c === '+') q = { min: 1, max: Infinity };
  else if (c === '?') q = { min: 0, max: 1 };
  if (q) {
    r.i += 1;
  } else if (c === '{') {
    const m = /^\{(\d+)(?:(,)(\d*))?\}/.exec(r.source.slice(r.i, r.i + 40));
    if (!m) return undefined; // a literal {
    const min = Number(m[1]);
    q = { min, max: m[2] === undefined ? min : m[3] === '' ? Infinity : Number(m[3]) };
    r.i += m[0].length;
  } else {
    return undefined;
  }
  if (r.peek() === '?') r.i += 1; // lazy or greedy: the same for whether it matches
  return q;
}

function readAtom(r: RegexReader): Node {
  const c = r.peek();
  switch (c) {
    case '(':
      return readGroup(r);
    case '^':
    case '$':
      r.i += 1;
      return { kind: 'assert', what: c };
    case '.':
      r.i += 1;
      return { kind: 'set', set: r.dotAll ? [0, r.max] : complement(lineTerminatorSet(), r.max) };
    case '[':
      return readClass(r);
    case '\\':
      return readEscape(r);
    default: {
      const char = r.char();
      return { kind: 'set', set: r.caseless([char, char]), literal: char };
    }
  }
}

function readGroup(r: RegexReader): Node {
  const rest = r.source.slice(r.i, r.i + 4);
  if (/^\(\?(=|!|<=|<!)/.test(rest)) refuse('lookahead and lookbehind assertions are not supported');
  if (rest.startsWith('(?:')) {
    r.i += 3;
  } else if (rest.startsWith('(?<')) {
    const end = r.source.indexOf('>', r.i);
    if (end === -1) refuse('a group name is not closed');
    r.i = end + 1;
  } else if (rest.startsWith('(?')) {
    refuse(`the group "${rest.slice(0, 3)}" is not supported`);
  } else {
    r.i += 1;
  }
  const alternatives = readAlternatives(r);
  if (r.peek() !== ')') refuse('a group is not closed');
  r.i += 1;
  return { kind: 'group', alternatives };
}

/** An escape outside a class. */
function readEscape(r: RegexReader): Node {
  const e = r.peek(1);
  if (e === 'b' || e === 'B') {
    if (r.unicode && r.ignoreCase) refuse('\\b and \\B are not supported with both the i and u options');
    r.i += 2;
    return { kind: 'assert', what: e };
  }
  if (e === 'k' && r.peek(2) === '<') refuse('backreferences are not allowed');
  if (/[1-9]/.test(e)) refuse('backreferences are not allowed');
  const escaped = readEscapedChar(r, false);
  if (typeof escaped === 'number') return { kind: 'set', set: r.caseless([escaped, escaped]), literal: escaped };
  if (typeof escaped === 'string') return { kind: 'class', re2: escaped };
  return { kind: 'set', set: r.caseless(escaped.set) };
}
