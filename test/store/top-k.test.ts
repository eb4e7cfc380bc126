import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstK } from '../../src/store/top-k.js';

describe('firstK', () => {
  it('equals sorting everything and taking the first k', () => {
    const byValue = (a: number, b: number) => a - b;
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer(), { maxLength: 60 }), fc.integer({ min: 0, max: 70 }), (items, k) => {
        expect(firstK(items, k, byValue)).toEqual([...items].sort(byValue).slice(0, k));
      }),
    );
  });
});
