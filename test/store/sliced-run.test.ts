import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runInSlices, runToEnd, type Steps } from '../../src/store/sliced-run.js';
import { sortInSteps } from '../../src/store/sliced-sort.js';

/** Work of `n` steps, each taking `msPerStep` on a clock that only it moves. */
function counting(n: number, msPerStep: number) {
  let t = 0;
  const log: string[] = [];
  const steps: Steps<number> = function* (pause) {
    for (let i = 0; i < n; i++) {
      t += msPerStep;
      if (pause()) {
        log.push(`pause after ${i + 1}`);
        yield;
      }
    }
    return n;
  };
  return { steps, now: () => t, log };
}

describe('runInSlices', () => {
  it('answers at once, without a promise, when the work fits in one slice', () => {
    const { steps, now } = counting(5, 1);
    expect(runInSlices(steps, { maxMs: 100, sliceMs: 10, maxConcurrent: 2, now }, () => new Error('over'))).toBe(5);
  });

  it('goes on in slices after other callbacks when the work is longer', async () => {
    const { steps, now, log } = counting(25, 1);
    const result = runInSlices(steps, { maxMs: 100, sliceMs: 10, maxConcurrent: 2, now }, () => new Error('over'));
    let otherRanAt = '';
    setImmediate(() => (otherRanAt = log.join(', ')));
    expect(result).toBeInstanceOf(Promise);
    expect(await result).toBe(25);
    expect(log).toEqual(['pause after 10', 'pause after 20']);
    expect(otherRanAt).toBe('pause after 10, pause after 20');
  });

  it('ends with the budget error once its computing time passes maxMs, and stops the work', async () => {
    const { steps, now, log } = counting(1_000, 1);
    // The first slice is not counted (at most sliceMs more): 10 free, then 36 counted.
    await expect(runInSlices(steps, { maxMs: 35, sliceMs: 10, maxConcurrent: 2, now }, (spent) => new Error(`over after ${spent} ms`))).rejects.toThrow('over after 36 ms');
    expect(log).toHaveLength(5);
  });

  it('counts only its own time, not the time it waits', async () => {
    let t = 0;
    const steps: Steps<string> = function* (pause) {
      for (let i = 0; i < 30; i++) {
        t += 1;
        if (pause()) {
          setImmediate(() => (t += 1_000)); // others run meanwhile
          yield;
        }
      }
      return 'done';
    };
    expect(await runInSlices(steps, { maxMs: 40, sliceMs: 10, maxConcurrent: 2, now: () => t }, () => new Error('over'))).toBe('done');
  });

  it('lets only maxConcurrent works go on past their first slice; the next waits its turn, without spending its budget', async () => {
    let t = 0;
    const order: string[] = [];
    const work = (name: string): Steps<string> =>
      function* (pause) {
        for (let i = 0; i < 3; i++) {
          t += 10;
          order.push(`${name}${i}`);
          if (pause()) yield;
        }
        return name;
      };
    const budget = { maxMs: 35, sliceMs: 10, maxConcurrent: 1, now: () => t };
    const results = [runInSlices(work('a'), budget, () => new Error('over')), runInSlices(work('b'), budget, () => new Error('over'))];
    expect(await Promise.all(results)).toEqual(['a', 'b']);
    // Each ran its first slice at once; b went on only when a was done.
    expect(order).toEqual(['a0', 'b0', 'a1', 'a2', 'b1', 'b2']);
  });

  it('counts the computing clock for its budget, the wall clock for its slices', async () => {
    let [wall, cpu] = [0, 0];
    const steps: Steps<string> = function* (pause) {
      for (let i = 0; i < 30; i++) {
        wall += 10; // a busy machine: the wall clock runs ten times faster than the work computes
        cpu += 1;
        if (pause()) yield;
      }
      return 'done';
    };
    const budget = { maxMs: 35, sliceMs: 10, maxConcurrent: 2, now: () => wall, cpuNow: () => cpu };
    expect(await runInSlices(steps, budget, () => new Error('over'))).toBe('done');
  });

  it('runToEnd never pauses', () => {
    const { steps, log } = counting(50, 1);
    expect(runToEnd(steps)).toBe(50);
    expect(log).toEqual([]);
  });
});

describe('sortInSteps', () => {
  it('sorts as Array.prototype.sort does, pausing or not', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer(), { maxLength: 3_000 }), fc.boolean(), (items, pauses) => {
        const sorted = runToEnd((pause) => sortInSteps(items, (a, b) => a - b, pauses ? () => true : pause));
        expect(sorted).toEqual([...items].sort((a, b) => a - b));
      }),
      { numRuns: 60 },
    );
  });
});
