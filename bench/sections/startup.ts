import { prismCommand, startServer, type ServerCommand } from '../lib/servers.js';
import { median, round } from '../lib/stats.js';

export interface StartupResult {
  readonly runs: number;
  readonly records: number;
  /** Milliseconds from spawn() to the first 200 of GET /node/api/users/current, each run. */
  readonly fakeMs: number[];
  readonly prismMs: number[];
  readonly fakeMedianMs: number;
  readonly prismMedianMs: number;
  /** fake / Prism; the target is at most 1/3. */
  readonly ratio: number;
}

/** Start-up of the fake and of Prism, measured the same way, alternating, `runs` times each. */
export async function runStartup(options: {
  readonly runs: number;
  readonly records: number;
  readonly fake: ServerCommand;
  readonly log: (line: string) => void;
}): Promise<StartupResult> {
  const fakeMs: number[] = [];
  const prismMs: number[] = [];
  for (let i = 0; i < options.runs; i++) {
    for (const [command, list] of [
      [options.fake, fakeMs],
      [prismCommand(), prismMs],
    ] as const) {
      const server = await startServer(command, { probeMs: 5 });
      list.push(round(server.startupMs, 0));
      options.log(`start-up ${command.name}: ${Math.round(server.startupMs)} ms`);
      await server.stop();
    }
  }
  const fakeMedianMs = median(fakeMs);
  const prismMedianMs = median(prismMs);
  return { runs: options.runs, records: options.records, fakeMs, prismMs, fakeMedianMs, prismMedianMs, ratio: round(fakeMedianMs / prismMedianMs, 2) };
}
