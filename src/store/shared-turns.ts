/**
 * Turns of the event loop shared by the long work of many requests. Each piece of work waits in
 * one queue, and one setImmediate a turn runs the pieces that were waiting when the turn began,
 * in order, until `budgetMs` of the turn is spent; the others wait for the next turn. However many
 * requests have long work going on, the event loop gets back to I/O (new connections, other
 * requests) after about `budgetMs`. With a setImmediate of their own, they all ran in the same
 * turn: 50 streamed pages held new connections for half a second (`npm run bench:hostile`).
 */
export interface SharedTurns {
  /** Runs `piece` in a coming turn, after those waiting before it. The function returned cancels it if it has not run yet. */
  later(piece: () => void): () => void;
  /** How many pieces wait. */
  readonly waiting: number;
}

interface Waiting {
  run: (() => void) | undefined;
}

export function createSharedTurns(budgetMs: number, now: () => number = () => performance.now()): SharedTurns {
  let queue: Waiting[] = [];
  let scheduled = false;
  let waiting = 0;

  const turn = () => {
    scheduled = false;
    const due = queue;
    queue = [];
    const start = now();
    let next = 0;
    try {
      // At least one piece a turn, so that work goes on however long a piece takes.
      while (next < due.length && (next === 0 || now() - start < budgetMs)) {
        const piece = due[next++]!;
        const run = piece.run;
        if (run === undefined) continue;
        piece.run = undefined;
        waiting--;
        run();
      }
    } finally {
      // Those not reached go first next turn, before pieces that came during this one (also
      // when a piece threw: the others still get their turns).
      if (next < due.length) queue = due.slice(next).concat(queue);
      if (waiting > 0) schedule();
      else queue = [];
    }
  };
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(turn);
  };

  return {
    later(run) {
      const piece: Waiting = { run };
      queue.push(piece);
      waiting++;
      schedule();
      return () => {
        if (piece.run === undefined) return;
        piece.run = undefined;
        waiting--;
      };
    },
    get waiting() {
      return waiting;
    },
  };
}
