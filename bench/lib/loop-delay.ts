// The client side of bench/lib/loop-delay-probe.mjs: the fake's own event-loop delay over a phase.
import { readFileSync } from 'node:fs';
import type { HostileResult } from './hostile-requests.js';

interface Delay {
  readonly seq: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
}

const read = (file: string): Delay | undefined => {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Delay;
  } catch {
    return undefined;
  }
};

/** Asks the fake for its delay since the last ask (and to start again); undefined when it has no probe. */
async function ask(pid: number, file: string): Promise<Delay | undefined> {
  const before = read(file)?.seq ?? 0;
  process.kill(pid, 'SIGUSR2');
  for (let waited = 0; waited < 5_000; waited += 10) {
    const delay = read(file);
    if (delay !== undefined && delay.seq > before) return delay;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return undefined;
}

/**
 * Starts measuring the fake's event-loop delay now; `stop(label, withinMs)` ends the phase and
 * gives its row (no answers: only the delay's p50, p99 and max). Without $BENCH_LOOP_DELAY_FILE
 * (the fake runs without the probe) there is no row.
 */
export async function loopDelayPhase(pid: number): Promise<{ stop: (label: string, withinMs: number) => Promise<HostileResult[]> }> {
  const file = process.env.BENCH_LOOP_DELAY_FILE;
  if (!file || !(await ask(pid, file))) return { stop: async () => [] };
  return {
    async stop(label, withinMs) {
      const delay = await ask(pid, file);
      return delay ? [{ label, expect: [], withinMs, statuses: {}, p50Ms: delay.p50Ms, p99Ms: delay.p99Ms, maxMs: delay.maxMs }] : [];
    },
  };
}
