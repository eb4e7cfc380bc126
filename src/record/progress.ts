// Progress of a recording on stderr: records so far, the rate, and how far through the time
// range it is with an estimate of the time left when one can be made. At most a line a second.

export interface Progress {
  /** Records taken so far and the newest timestamp reached. */
  update(taken: number, reached: number | undefined): void;
  /** The last line of a log, whatever the time. */
  done(taken: number): void;
}

const count = (n: number): string => n.toLocaleString('en-US');

export function createProgress(label: string, range: { from?: number; to: number }, print: (line: string) => void, now: () => number = Date.now): Progress {
  const started = now();
  let shown = started;
  let first = range.from;
  const line = (taken: number, reached: number | undefined): string => {
    const seconds = Math.max(0.001, (now() - started) / 1000);
    const parts = [`${label}: ${count(taken)} records`, `${count(Math.round(taken / seconds))}/s`];
    first ??= reached;
    if (reached !== undefined && first !== undefined && range.to > first) {
      const done = Math.min(1, Math.max(0, (reached - first) / (range.to - first)));
      parts.push(`${Math.floor(done * 100)}% of the time range`);
      if (done > 0 && done < 1) parts.push(`about ${Math.ceil((seconds * (1 - done)) / done)} s left`);
    }
    return parts.join(', ');
  };
  return {
    update(taken, reached) {
      if (now() - shown < 1000) return;
      shown = now();
      print(line(taken, reached));
    },
    done(taken) {
      const seconds = Math.max(0.001, (now() - started) / 1000);
      print(`${label}: ${count(taken)} records in ${seconds.toFixed(1)} s`);
    },
  };
}
