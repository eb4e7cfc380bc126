/**
 * Runs long work in slices, so that one request cannot hold the event loop: the work is a
 * generator that asks `pause()` at its safe points and yields when told to. Work that ends
 * within its first slice answers at once (no promise); longer work goes on after other
 * callbacks (setImmediate) and ends with `overBudget` once its own computing time, the
 * slices added up, passes `maxMs`. The budget is plain data: the caller reads it from the
 * document and brings the clocks.
 */
export interface SliceBudget {
  /** Most ms the work may compute in all (Infinity: no end). */
  readonly maxMs: number;
  /** Longest a slice runs before other work gets a turn, in ms. */
  readonly sliceMs: number;
  /**
   * Most works going on past their first slice at once (each holds memory while it lasts);
   * one more waits for its turn, without spending its budget.
   */
  readonly maxConcurrent: number;
  /** A monotonic clock in ms, e.g. performance.now: it ends slices. */
  readonly now: () => number;
  /**
   * The time the process has computed, in ms (from process.cpuUsage): the budget counts it,
   * so that a machine busy with other processes does not make the work look costly. Default: `now`.
   */
  readonly cpuNow?: () => number;
}

export type Steps<T> = (pause: () => boolean) => Generator<void, T, void>;

// The works going on past their first slice, and those waiting for a turn.
let running = 0;
const waiting: (() => void)[] = [];

export function runInSlices<T>(steps: Steps<T>, budget: SliceBudget, overBudget: (spentMs: number) => Error): T | Promise<T> {
  const { maxMs, sliceMs, now, cpuNow = now } = budget;
  let spent = 0;
  let sliceStart = now();
  const pause = () => {
    const elapsed = now() - sliceStart;
    return elapsed >= sliceMs || spent + elapsed > maxMs;
  };
  const work = steps(pause);
  /** One slice: the result when the work ended in it, else undefined. */
  const slice = (first = false): { value: T } | undefined => {
    sliceStart = now();
    // The budget counts from the second slice on, so at most one slice (sliceMs) goes
    // uncounted: most works end in their first slice, and reading the process's computing time
    // (a system call) around it cost more than a short query itself.
    const computedBefore = first ? 0 : cpuNow();
    const step = work.next();
    if (!first) spent += cpuNow() - computedBefore;
    if (step.done) return { value: step.value };
    if (spent > maxMs) {
      work.return(undefined as T);
      throw overBudget(spent);
    }
    return undefined;
  };
  const first = slice(true);
  if (first) return first.value;
  return new Promise<T>((resolve, reject) => {
    const done = () => {
      running--;
      waiting.shift()?.();
    };
    const next = () => {
      try {
        const ended = slice();
        if (!ended) return void setImmediate(next);
        done();
        resolve(ended.value);
      } catch (error) {
        done();
        reject(error);
      }
    };
    const start = () => {
      running++;
      setImmediate(next);
    };
    if (running < budget.maxConcurrent) start();
    else waiting.push(start);
  });
}

/** Runs the same work to its end at once, never pausing: for callers that need no slices. */
export function runToEnd<T>(steps: Steps<T>): T {
  const work = steps(() => false);
  for (;;) {
    const step = work.next();
    if (step.done) return step.value;
  }
}
