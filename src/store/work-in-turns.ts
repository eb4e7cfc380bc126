/**
 * Long work spread over turns of the event loop (setImmediate between turns), so that other
 * callbacks, requests among them, run in between: the work is a generator that yields how
 * many items it went through since its last yield, and a turn goes on until `perTurn` items
 * or the end. A caller that cannot wait may finish it at once.
 */
export interface WorkInTurns {
  /** Goes on in turns until the end: the first turn now, or on the next turn of the event loop. Does nothing while turns are going on. */
  go(firstTurnNow: boolean): void;
  /** Runs the rest at once. */
  finish(): void;
  /** Ends the work where it is, with no more turns and neither callback. */
  stop(): void;
}

/** `onEnd` gets the work's result, `onFail` what it threw; either is called once, in the turn that ends it. */
export function workInTurns<T>(work: Generator<number, T, void>, perTurn: number, onEnd: (result: T) => void, onFail: (error: unknown) => void): WorkInTurns {
  let timer: NodeJS.Immediate | undefined;
  let over = false;
  const run = (limit: number): void => {
    timer = undefined;
    let gone = 0;
    let ended: { readonly result: T } | undefined;
    try {
      while (gone < limit && ended === undefined) {
        const step = work.next();
        if (step.done === true) ended = { result: step.value };
        else gone += step.value;
      }
    } catch (error) {
      over = true;
      return onFail(error);
    }
    if (ended === undefined) return void (timer = setImmediate(() => run(perTurn)));
    over = true;
    onEnd(ended.result);
  };
  const cancel = () => {
    if (timer !== undefined) clearImmediate(timer);
    timer = undefined;
  };
  return {
    go(firstTurnNow) {
      if (over || timer !== undefined) return;
      if (firstTurnNow) run(perTurn);
      else timer = setImmediate(() => run(perTurn));
    },
    finish() {
      if (over) return;
      cancel();
      run(Infinity);
    },
    stop() {
      if (over) return;
      over = true;
      cancel();
    },
  };
}
