import { createHook } from 'node:async_hooks';

let kept: object | undefined;

/**
 * Keeps one of the objects `process.nextTick` makes alive for the life of the process, so that
 * V8 keeps their hidden classes. V8 holds those classes only weakly: a full garbage collection
 * at a moment when no such object is alive (as while the fake starts and makes its records) drops
 * them, the next `nextTick` makes new ones, and the inline caches in `nextTick` that had seen the
 * old ones give up for good. From then on every `nextTick` (a request takes several) goes through
 * V8's runtime: about 3.5 µs more a request on `GET /users/current`, a sixth of its cost, in
 * `perf` profiles. One object kept alive keeps its classes. The async hook that catches it is
 * enabled for that one `nextTick` only.
 */
export function keepTickObjectShape(): void {
  if (kept !== undefined) return;
  const hook = createHook({
    init(_id, type, _trigger, resource) {
      if (type === 'TickObject') kept ??= resource;
    },
  });
  hook.enable();
  process.nextTick(() => {});
  hook.disable();
}
