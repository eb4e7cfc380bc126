import { createHook } from 'node:async_hooks';

let kept: object | undefined;

/**
 * Keeps one of the objects `process.nextTick` makes alive for the life of the process, so that V8
 * keeps their hidden classes: it holds them only weakly, and once a full collection drops them (as
 * while the fake makes its records) the inline caches in `nextTick` give up for good, a cost on
 * every request. The async hook that catches the object is enabled for that one `nextTick` only.
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
