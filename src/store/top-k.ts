/**
 * The first `k` items of `items` in `compare` order, sorted: a bounded max-heap, so a page of
 * a large sorted result costs n log k comparisons instead of a full sort. `compare` must be a
 * total order (no ties), as the event log's (key, _id) order is.
 */
export function firstK<T>(items: readonly T[], k: number, compare: (a: T, b: T) => number): T[] {
  if (k <= 0) return [];
  const heap: T[] = []; // heap[0] is the largest kept item
  const up = (i: number) => {
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (compare(heap[i] as T, heap[parent] as T) <= 0) return;
      [heap[i], heap[parent]] = [heap[parent] as T, heap[i] as T];
      i = parent;
    }
  };
  const down = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let largest = i;
      if (l < heap.length && compare(heap[l] as T, heap[largest] as T) > 0) largest = l;
      if (r < heap.length && compare(heap[r] as T, heap[largest] as T) > 0) largest = r;
      if (largest === i) return;
      [heap[i], heap[largest]] = [heap[largest] as T, heap[i] as T];
      i = largest;
    }
  };
  for (const item of items) {
    if (heap.length < k) {
      heap.push(item);
      up(heap.length - 1);
    } else if (compare(item, heap[0] as T) < 0) {
      heap[0] = item;
      down(0);
    }
  }
  return heap.sort(compare);
}
