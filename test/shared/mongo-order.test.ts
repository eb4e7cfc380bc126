import fc from 'fast-check';
import { compare as mingoCompare } from 'mingo/util';
import { describe, expect, it } from 'vitest';
import { compareValues, sortKey } from '../../src/shared/mongo-order.js';

// MongoDB's order, checked against mingo's comparison where mingo follows MongoDB, and against
// UTF-8 bytes for strings; each place where mingo departs from MongoDB is named below.
const sign = (n: number) => (n < 0 ? -1 : n > 0 ? 1 : 0);
const ascKey = (v: unknown) => sortKey(v, 'asc');

// Below U+D800 UTF-16 units and code points agree, so mingo's string order is MongoDB's there.
const bmpString = fc.string({ unit: fc.integer({ min: 0, max: 0xd7ff }).map((c) => String.fromCharCode(c)), maxLength: 4 });
const scalar = fc.oneof(
  fc.constant(null),
  fc.integer({ min: -3, max: 3 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom('', 'a', 'B', 'b', 'é', 'ab'),
  bmpString,
  fc.boolean(),
);
// mingo sorts an array's elements before comparing, MongoDB keeps their order: sorted arrays agree.
const sortedArray = fc.array(scalar, { maxLength: 3 }).map((xs) => xs.sort(mingoCompare));
// mingo compares key names (sorted) first, MongoDB each field's type first: one key set agrees.
const inner = fc.record({ a: scalar, b: scalar });
const sameKeys = fc.record({ a: fc.oneof(scalar, sortedArray, inner), b: scalar });
const value = fc.oneof(scalar, sameKeys);

describe('MongoDB value order', () => {
  it('agrees with mingo on scalars, objects of one key set and arrays', () => {
    fc.assert(
      fc.property(fc.oneof(value, sortedArray), fc.oneof(value, sortedArray), (a, b) => {
        // At the top, mingo's compare reads an array as a field's values; one level down, as a value.
        expect(sign(compareValues(a, b))).toBe(sign(mingoCompare([a], [b])));
      }),
      { numRuns: 2000 },
    );
  });

  it('sorts a field ascending like mingo: an array by its smallest element, an empty one first', () => {
    const field = fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }));
    fc.assert(
      fc.property(field, field, (a, b) => {
        // Two arrays with the same smallest element tie in MongoDB; mingo goes on to the next.
        fc.pre(!(Array.isArray(a) && Array.isArray(b)));
        expect(sign(compareValues(ascKey(a), ascKey(b)))).toBe(sign(mingoCompare(a, b)));
      }),
      { numRuns: 2000 },
    );
  });

  it('orders strings as MongoDB does: by their UTF-8 bytes', () => {
    const text = fc.string({ unit: 'grapheme', maxLength: 4 });
    fc.assert(
      fc.property(text, text, (a, b) => {
        expect(sign(compareValues(a, b))).toBe(sign(Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'))));
      }),
      { numRuns: 2000 },
    );
  });

  it('is a total order: antisymmetric and transitive', () => {
    const any = fc.oneof(value, fc.array(value, { maxLength: 3 }), fc.string({ unit: 'grapheme', maxLength: 3 }));
    fc.assert(
      fc.property(any, any, any, (a, b, c) => {
        expect(compareValues(a, a)).toBe(0);
        expect(sign(compareValues(a, b))).toBe(-sign(compareValues(b, a)) || 0);
        if (compareValues(a, b) <= 0 && compareValues(b, c) <= 0) expect(compareValues(a, c)).toBeLessThanOrEqual(0);
      }),
      { numRuns: 2000 },
    );
  });

  describe('where mingo departs from MongoDB, MongoDB wins', () => {
    it('strings by code point, not UTF-16 unit', () => {
      expect(compareValues('\u{1F600}', '\uFF01')).toBeGreaterThan(0);
      expect(mingoCompare('\u{1F600}', '\uFF01')).toBeLessThan(0);
    });
    it('missing and null sort alike', () => {
      expect(compareValues(ascKey(undefined), ascKey(null))).toBe(0);
      expect(mingoCompare(undefined, null)).toBeLessThan(0);
    });
    it('an empty array field sorts below null', () => {
      expect(compareValues(ascKey([]), ascKey(null))).toBeLessThan(0);
      expect(compareValues(ascKey([]), ascKey(undefined))).toBeLessThan(0);
    });
    it('arrays element by element in their own order', () => {
      expect(compareValues([2, 1], [1, 3])).toBeGreaterThan(0);
      expect(mingoCompare([2, 1], [1, 3])).toBeLessThan(0);
    });
    it("objects field by field, each field's type before its name", () => {
      expect(compareValues({ a: 'x' }, { b: 1 })).toBeGreaterThan(0);
      expect(mingoCompare({ a: 'x' }, { b: 1 })).toBeLessThan(0);
    });
    it('a descending sort takes the largest element of an array field', () => {
      expect(compareValues(sortKey([1, 5], 'desc'), sortKey(3, 'desc'))).toBeGreaterThan(0);
      expect(mingoCompare([1, 5], 3)).toBeLessThan(0); // mingo reverses the ascending order
    });
  });
});
