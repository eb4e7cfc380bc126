/** Collects what a callback is given and lets a test await the n-th item (no sleeping). */
export function createCollector<T>() {
  const items: T[] = [];
  const waiters: { count: number; resolve: () => void }[] = [];
  return {
    items,
    /** Pass this as the callback (a sink, an onDrop). */
    push: (item: T): void => {
      items.push(item);
      for (const w of waiters.filter((w) => items.length >= w.count)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    },
    /** Resolves with all items once at least `count` have arrived. */
    async until(count: number): Promise<T[]> {
      if (items.length < count) await new Promise<void>((resolve) => waiters.push({ count, resolve }));
      return items;
    },
  };
}
