import { describe, expect, it } from 'vitest';
import { caseClosure, caseOrbits, warmCaseOrbits } from '../../src/store/case-orbits.js';
import { charSet, complement, has } from '../../src/store/char-set.js';

// First: the i rules are built once per process (per test file), and here by the warm-up.
describe('warmCaseOrbits', () => {
  it('builds the i rules in steps, letting other callbacks run, and leaves them ready', async () => {
    let turns = 0;
    let warmed = false;
    const warming = warmCaseOrbits(1).then(() => (warmed = true));
    const count = (): void => {
      turns++;
      if (!warmed) setImmediate(count);
    };
    setImmediate(count);
    await warming;
    expect(turns).toBeGreaterThan(2);
    const ready = caseOrbits(true);
    expect(caseOrbits(true)).toBe(ready);
    expect(ready.orbitOf.get(0x212a)).toEqual([0x4b, 0x6b, 0x212a]);
  });
});

describe('character sets', () => {
  it('merge, complement and look up ranges', () => {
    const set = charSet([5, 9, 0, 2, 3, 3, 20, 20]);
    expect(set).toEqual([0, 3, 5, 9, 20, 20]);
    expect(complement(set, 25)).toEqual([4, 4, 10, 19, 21, 25]);
    expect([0, 3, 4, 9, 10, 20, 21].map((c) => has(set, c))).toEqual([true, true, false, true, false, true, false]);
  });

  it('close a set under the i rules of each mode, as JavaScript has them', () => {
    const k = 'k'.codePointAt(0) as number;
    // The Kelvin sign equals k only with the u flag.
    expect(caseClosure([k, k], false)).toEqual(charSet([0x4b, 0x4b, k, k]));
    expect(caseClosure([k, k], true)).toEqual(charSet([0x4b, 0x4b, k, k, 0x212a, 0x212a]));
  });
});
