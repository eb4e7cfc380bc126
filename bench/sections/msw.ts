import { spawnSync } from 'node:child_process';
import { root } from '../lib/servers.js';
import { quantile } from '../lib/stats.js';

export interface MswWay {
  readonly key: string;
  readonly firstMs: number;
  readonly p50Ms: number;
  readonly p95Ms: number;
  readonly maxMs: number;
  /** CPU time of the process during one test (user + system), p50. */
  readonly cpuP50Ms: number;
}

export interface MswResult {
  readonly runs: number;
  readonly records: number;
  readonly request: string;
  readonly ways: MswWay[];
}

/** What a test pays with `monitoring-api-kit/msw`: bench/msw-per-test.ts in a process of its own. */
export function runMsw(options: { readonly runs: number; readonly records: number; readonly log: (line: string) => void }): MswResult {
  options.log(`msw: reset + one request, ${options.runs} runs each way, the fake with ${options.records} records`);
  const child = spawnSync(process.execPath, ['--import', 'tsx', 'bench/msw-per-test.ts', '--runs', String(options.runs), '--records', String(options.records)], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 2 ** 20,
  });
  if (child.status !== 0) throw new Error(`bench/msw-per-test.ts failed:\n${child.stderr}`);
  const measured = JSON.parse(child.stdout) as { runs: number; records: number; request: string; first: Record<string, number>; samples: Record<string, number[]>; cpu: Record<string, number[]> };
  return {
    runs: measured.runs,
    records: measured.records,
    request: measured.request,
    ways: Object.entries(measured.samples).map(([key, samples]) => ({
      key,
      firstMs: measured.first[key] ?? Number.NaN,
      p50Ms: quantile(samples, 0.5),
      p95Ms: quantile(samples, 0.95),
      maxMs: Math.max(...samples),
      cpuP50Ms: quantile(measured.cpu[key] ?? [], 0.5),
    })),
  };
}
