import { spawnSync } from 'node:child_process';
import { fakeBin, root, startServer, type ServerCommand } from '../lib/servers.js';

export interface ContractResult {
  readonly command: string;
  readonly wallMs: number;
  readonly exitCode: number;
  /** Requests the suite sent, as its summary line says. */
  readonly requests?: number;
  readonly summary: string;
}

/** Whether this checkout has the `check` command (the contract runner). */
export function hasCheckCommand(bin = fakeBin): boolean {
  const probe = spawnSync(process.execPath, [bin, 'check', '--help'], { cwd: root, encoding: 'utf8', timeout: 60_000 });
  return probe.status === 0;
}

/** Wall time of the contract suite (`monitoring-api-kit check`) against a listening fake. */
export async function runContract(options: {
  readonly fake: ServerCommand;
  /** The bin whose `check` runs (default: this checkout's). */
  readonly bin?: string;
  readonly checkArgs: (origin: string) => string[];
  readonly env?: Readonly<Record<string, string>>;
  readonly log: (line: string) => void;
}): Promise<ContractResult> {
  const server = await startServer(options.fake);
  try {
    const args = options.checkArgs(server.origin);
    const t0 = performance.now();
    const run = spawnSync(process.execPath, [options.bin ?? fakeBin, ...args], {
      cwd: root,
      encoding: 'utf8',
      timeout: 600_000,
      env: { ...process.env, ...options.env },
    });
    const wallMs = Math.round(performance.now() - t0);
    const summary = /^(PASSED|FAILED):.*$/m.exec(run.stdout)?.[0] ?? '';
    options.log(`contract suite: ${wallMs} ms, exit ${run.status}: ${summary}`);
    if (run.status !== 0) options.log(`${run.stdout}\n${run.stderr}`.slice(-3000));
    const requests = /in (\d+) requests/.exec(summary)?.[1];
    return {
      command: `monitoring-api-kit ${args.join(' ').replace(server.origin, '<fake>')}`,
      wallMs,
      exitCode: run.status ?? -1,
      ...(requests !== undefined ? { requests: Number(requests) } : {}),
      summary: summary.replace(server.origin, '<fake>'),
    };
  } finally {
    await server.stop();
  }
}
