import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { caseOrbits } from '../../src/store/char-set.js';
import { compileLinearRegex } from '../../src/store/linear-regex.js';

// Characters where JavaScript's rules are easy to get wrong: line terminators, JavaScript's
// white space, the case oddities (ſ, K the Kelvin sign, ß and ẞ, the Ohm sign, dotted and
// dotless i, final sigma), a character outside the BMP and lone surrogates.
const TRICKY = [
  'a', 'b', 'A', 'B', 'k', 'K', 's', 'S', 'x', '0', '9', '_', '-', '.', ' ', '!', '/', '{', '}', ']',
  '\n', '\r', '\u2028', '\u2029', '\t', '\v', '\u00a0', '\ufeff', '\u1680', '\u3000',
  '\u017f', '\u212a', 'ß', '\u1e9e', '\u2126', 'ω', 'Ω', 'i', 'I', '\u0130', '\u0131', 'σ', 'ς', 'Σ', 'é', 'É',
  '\u{1F600}', '\uD83D', '\uDE00', '\u0001', '\u0000',
];
const text = fc.array(fc.constantFrom(...TRICKY), { maxLength: 8 }).map((cs) => cs.join(''));

const literal = fc.constantFrom(
  'a', 'b', 'A', 'k', 'K', 's', 'S', '\u017f', '\u212a', 'ß', '\u1e9e', 'ω', '\u2126', 'I', '\u0131', 'σ', 'é', 'x', '0', ' ', '-', '/', '{', '}', ']',
  '\u{1F600}', '\\.', '\\*', '\\(', '\\/', '\\-', '\\n', '\\r', '\\t', '\\v', '\\x41', '\\u00e9', '\\uD83D', '\\uDE00', '\\uD83D\\uDE00', '\\u{1F600}', '\\cJ', '\\0',
);
const classItem = fc.constantFrom(
  'a', 'b', 'k', 's', 'A-Z', 'a-z', '0-9', '\u017f', '\u212a', 'ß', 'ω', '\\w', '\\W', '\\s', '\\S', '\\d', '\\D', '\\b', '-', '\\-', '\u{1F600}',
  '\\uD800-\\uDFFF', '\\n', '\\x00-\\x1f', ']',
);
const charClass = fc.tuple(fc.boolean(), fc.array(classItem, { maxLength: 3 })).map(([negated, items]) => {
  const body = items.join('');
  return `[${negated ? '^' : ''}${body.startsWith(']') ? `\\${body}` : body}]`;
});
const other = fc.constantFrom('.', '^', '$', '\\d', '\\D', '\\w', '\\W', '\\s', '\\S', '\\b', '\\B', '\\p{Lu}', '\\P{L}', '\\p{Script=Greek}');
const quantifier = fc.constantFrom('', '', '', '*', '+', '?', '{2}', '{0,2}', '{1,}', '*?', '+?');
const { pattern } = fc.letrec<{ pattern: string; sequence: string; atom: string }>((tie) => ({
  pattern: fc.array(tie('sequence'), { minLength: 1, maxLength: 3 }).map((alternatives) => alternatives.join('|')),
  sequence: fc.array(tie('atom'), { maxLength: 4 }).map((atoms) => atoms.join('')),
  atom: fc
    .tuple(
      fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        literal,
        charClass,
        other,
        fc.tuple(fc.constantFrom('(', '(?:', '(?<g>'), tie('pattern')).map(([open, inner]) => `${open}${inner})`),
      ),
      quantifier,
    )
    .map(([atom, q]) => atom + q),
}));
const flags = fc.subarray(['i', 'm', 's', 'u']).map((f) => f.join(''));

describe('linear-time regexes', () => {
  it('answer as JavaScript does, for every pattern both accept', () => {
    let compared = 0;
    fc.assert(
      fc.property(pattern, flags, fc.array(text, { minLength: 1, maxLength: 8 }), (source, f, texts) => {
        let js: RegExp;
        try {
          js = new RegExp(source, f);
        } catch {
          return; // not JavaScript
        }
        const linear = compileLinearRegex(js.source, js.flags);
        if (!linear.ok) return;
        compared++;
        for (const t of texts) expect(linear.regex.test(t), `/${source}/${f} on ${JSON.stringify(t)}`).toBe(js.test(t));
      }),
      { numRuns: 4000 },
    );
    expect(compared).toBeGreaterThan(1500);
  });

  it('compare case-insensitively as JavaScript does, for every character that has a case', () => {
    for (const unicode of [false, true]) {
      const f = unicode ? 'iu' : 'i';
      for (const c of caseOrbits(unicode).cased) {
        const s = String.fromCodePoint(c);
        const js = new RegExp(s.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&'), f);
        const linear = compileLinearRegex(js.source, f);
        if (!linear.ok) throw new Error(linear.problem);
        const candidates = new Set([s, s.toUpperCase(), s.toLowerCase(), s.toUpperCase().toLowerCase(), s.toLowerCase().toUpperCase(), 'k', 's', 'i', 'I']);
        for (const t of candidates) {
          if (linear.regex.test(t) !== js.test(t)) expect(`${JSON.stringify(t)} against /${s}/${f}: ${linear.regex.test(t)}`).toBe(`... ${js.test(t)}`);
        }
      }
    }
  });

  it('take time linear in the text where backtracking takes exponential time', () => {
    const linear = compileLinearRegex('(a+)+$', '');
    if (!linear.ok) throw new Error(linear.problem);
    // JavaScript takes minutes on this; the linear engine well under a second.
    expect(linear.regex.test(`${'a'.repeat(5_000)}!`)).toBe(false);
  });
});
