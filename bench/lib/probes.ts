// Runs bench/probe-client.ts beside a hostile phase and sorts its answers into time windows.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { root } from './servers.js';

export interface ProbeAnswer {
  /** Epoch ms (fractional) when the request was started. */
  readonly at: number;
  readonly status: number;
  readonly ms: number;
}

/** The epoch time now in ms, as the probe process writes it. */
export const epochNow = () => performance.timeOrigin + performance.now();

/** Starts the probe process; `stop()` ends it and gives every answer it timed. */
export function startProbes(origin: string, intervalMs: number): { stop: () => Promise<ProbeAnswer[]> } {
  const child = spawn(process.execPath, ['--import', 'tsx', `${root}bench/probe-client.ts`, origin, String(intervalMs)], { cwd: root, stdio: ['pipe', 'pipe', 'inherit'] });
  const answers: ProbeAnswer[] = [];
  createInterface({ input: child.stdout! }).on('line', (line) => answers.push(JSON.parse(line) as ProbeAnswer));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    stop: async () => {
      child.stdin!.end();
      await exited;
      return answers;
    },
  };
}
