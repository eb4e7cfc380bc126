// The run's deadline (--max-duration): one signal that ends the request in flight and cuts any
// wait short, so no server can hold a run longer than it may take.
import { StoppedError } from '../errors.js';

export interface Deadline {
  readonly signal: AbortSignal;
  /** What the run is doing, for the line that says where it stopped. */
  doing(what: string): void;
  /** Sleeps, but wakes when time is up and throws why. */
  sleep(ms: number, sleep: (ms: number) => Promise<void>): Promise<void>;
  clear(): void;
}

export function startDeadline(maxDurationMs: number | undefined): Deadline {
  const controller = new AbortController();
  const { signal } = controller;
  let what = 'the start';
  const timer =
    maxDurationMs === undefined ? undefined : setTimeout(() => controller.abort(new StoppedError(`stopped after ${maxDurationMs / 1000} s (--max-duration) during ${what}`)), maxDurationMs);
  const aborted = new Promise<void>((resolve) => signal.addEventListener('abort', () => resolve(), { once: true }));
  return {
    signal,
    doing(next) {
      what = next;
    },
    async sleep(ms, sleep) {
      await Promise.race([sleep(ms), aborted]);
      if (signal.aborted) throw signal.reason;
    },
    clear() {
      clearTimeout(timer);
    },
  };
}
