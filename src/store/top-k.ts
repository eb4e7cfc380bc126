/**
 * The first `k` items in `compare` order, offered one at a time: a bounded max-heap, so a page
 * of a large sorted result costs n log k comparisons instead of a full sort. `compare` must be
 * a total order (no ties), as the event log's (key, _id) order is.
 */
export class FirstK<T> {
  readonly #heap: T[] = []; // #heap[0] is the largest kept item

  constructor(
    private readonly k: number,
    private readonly compare: (a: T, b: T) => number,
  ) {}

  offer(item: T): void {
    const heap = this.#heap;
    if (heap.length < this.k) {
      heap.push(item);
      this.#up(heap.length - 1);
    } else if (this.k > 0 && this.compare(item, heap[0] as T) < 0) {
      heap[0] = item;
      this.#down(0);
    }
  }

  /** The kept items, sorted. */
  sorted(): T[] {
    return this.#heap.slice().sort(this.compare);
  }

  #up(i: number): void {
    const heap = this.#heap;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (this.compare(heap[i] as T, heap[parent] as T) <= 0) return;
      [heap[i], heap[parent]] = [heap[parent] as T, heap[i] as T];
      i = parent;
    }
  }

  #down(i: number): void {
    const heap = this.#heap;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let largest = i;
      if (l < heap.length && this.compare(heap[l] as T, heap[largest] as T) > 0) largest = l;
      if (r < heap.length && this.compare(heap[r] as T, heap[largest] as T) > 0) largest = r;
      if (largest === i) return;
      [heap[i], heap[largest]] = [heap[largest] as T, heap[i] as T];
      i = largest;
    }
  }
}
