import { msFromSpawnTo200, prismCommand, startServer, type ServerCommand } from '../lib/servers.js';
import { median, round } from '../lib/stats.js';

export interface StartupResult {
  readonly runs: number;
  readonly records: number;
  /** Milliseconds from spawn() to the first 200 of GET /node/api/users/current, each run. */
  readonly fakeMs: number[];
  readonly prismMs: number[];
  /** CPU time of the process by its first 200, each run. */
  readonly fakeCpuMs: number[];
  readonly prismCpuMs: number[];
  /**
   * Milliseconds from spawn() to the 200 of the first event log page (GET /node/api/event-log?limit=50,
   * asked right after the first 200), each run: the fake makes its event log's records on first use.
   */
  readonly fakeFirstPageMs?: number[];
  readonly prismFirstPageMs?: number[];
  readonly fakeMedianCpuMs: number;
  readonly prismMedianCpuMs: number;
  readonly fakeMedianMs: number;
  readonly prismMedianMs: number;
  /** fake / Prism; the target is at most 1/3. */
  readonly ratio: number;
  /** Another command measured for comparison (e.g. the fake from its sources through tsx). */
  readonly comparison?: {
    readonly name: string;
    readonly ms: number[];
    readonly cpuMs: number[];
    readonly medianMs: number;
    readonly medianCpuMs: number;
    readonly ratio: number;
  };
}

/** Start-up of the fake and of Prism, measured the same way, alternating, `runs` times each. */
export async function runStartup(options: {
  readonly runs: number;
  readonly records: number;
  readonly fake: ServerCommand;
  /** Also measured, for comparison: e.g. the fake from its sources through tsx. */
  readonly extra?: ServerCommand;
  readonly log: (line: string) => void;
}): Promise<StartupResult> {
  const fakeMs: number[] = [];
  const prismMs: number[] = [];
  const fakeCpuMs: number[] = [];
  const prismCpuMs: number[] = [];
  const fakeFirstPageMs: number[] = [];
  const prismFirstPageMs: number[] = [];
  const extraMs: number[] = [];
  const extraCpuMs: number[] = [];
  const series: [ServerCommand, number[], number[], number[] | undefined][] = [
    [options.fake, fakeMs, fakeCpuMs, fakeFirstPageMs],
    [prismCommand(), prismMs, prismCpuMs, prismFirstPageMs],
    ...(options.extra ? [[options.extra, extraMs, extraCpuMs, undefined] as [ServerCommand, number[], number[], undefined]] : []),
  ];
  for (let i = 0; i < options.runs; i++) {
    for (const [command, wall, cpu, firstPage] of series) {
      const server = await startServer(command, { probeMs: 5 });
      wall.push(round(server.startupMs, 0));
      cpu.push(server.startupCpuMs);
      const pageMs = firstPage ? await msFromSpawnTo200(server, '/node/api/event-log?limit=50') : undefined;
      if (firstPage && pageMs !== undefined) firstPage.push(round(pageMs, 0));
      options.log(`start-up ${command.name}: ${Math.round(server.startupMs)} ms (${server.startupCpuMs} ms CPU)${pageMs === undefined ? '' : `, first event log page at ${Math.round(pageMs)} ms`}`);
      await server.stop();
    }
  }
  const fakeMedianMs = median(fakeMs);
  const prismMedianMs = median(prismMs);
  return {
    runs: options.runs,
    records: options.records,
    fakeMs,
    prismMs,
    fakeCpuMs,
    prismCpuMs,
    fakeFirstPageMs,
    prismFirstPageMs,
    fakeMedianMs,
    prismMedianMs,
    fakeMedianCpuMs: median(fakeCpuMs),
    prismMedianCpuMs: median(prismCpuMs),
    ratio: round(fakeMedianMs / prismMedianMs, 2),
    ...(options.extra
      ? {
          comparison: {
            name: options.extra.name,
            ms: extraMs,
            cpuMs: extraCpuMs,
            medianMs: median(extraMs),
            medianCpuMs: median(extraCpuMs),
            ratio: round(median(extraMs) / prismMedianMs, 2),
          },
        }
      : {}),
  };
}
