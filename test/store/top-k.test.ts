import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FirstK } from '../../src/store/event-log.js';

function firstK<T>(items: readonly T[], k: number, compare: (a: T, b: T) => number): T[] {
  const top = new FirstK(k, compare);
  for (const item of items) top.offer(item);
  return top.sorted();
}

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
