/**
 * A merge sort that can stop between steps (see sliced-run.ts): runs of a few hundred items
 * are sorted at once, then merged pairwise, asking `pause()` every few hundred items. With a
 * total order (no ties) the result is the one Array.prototype.sort gives.
 */
const RUN = 512;

export function* sortInSteps<T>(items: readonly T[], compare: (a: T, b: T) => number, pause: () => boolean): Generator<void, T[], void> {
  let from: T[] = [];
  for (let start = 0; start < items.length; start += RUN) {
    const run = items.slice(start, start + RUN).sort(compare);
    for (const item of run) from.push(item);
    if (pause()) yield;
  }
  let to = new Array<T>(from.length);
  for (let width = RUN; width < from.length; width *= 2) {
    for (let lo = 0; lo < from.length; lo += 2 * width) {
      const mid = Math.min(lo + width, from.length);
      const hi = Math.min(lo + 2 * width, from.length);
      let [i, j] = [lo, mid];
      for (let k = lo; k < hi; k++) {
        to[k] = i < mid && (j >= hi || compare(from[i] as T, from[j] as T) < 0) ? (from[i++] as T) : (from[j++] as T);
        if ((k & 511) === 511 && pause()) yield;
      }
    }
    [from, to] = [to, from];
  }
  return from;
}
