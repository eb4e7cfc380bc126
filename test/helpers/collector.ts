/** Collects what a callback is given and lets a test await what it expects (no sleeping). */
export function createCollector<T>() {
  const items: T[] = [];
  const waiters: { ready: (items: readonly T[]) => boolean; resolve: () => void }[] = [];
  const waitFor = async (ready: (items: readonly T[]) => boolean): Promise<T[]> => {
    if (!ready(items)) await new Promise<void>((resolve) => waiters.push({ ready, resolve }));
    return items;
  };
  return {
    items,
    /** Pass this as the callback (a sink, an onDrop). */
    push: (item: T): void => {
      items.push(item);
      for (const w of waiters.filter((w) => w.ready(items))) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    },
    /** Resolves with all items once at least `count` have arrived. */
    until: (count: number): Promise<T[]> => waitFor((all) => all.length >= count),
    /** Resolves with all items once `ready` holds for them. */
    waitFor,
  };
}
