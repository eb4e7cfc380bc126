import { cpus, loadavg, totalmem } from 'node:os';

/** What the numbers were measured on: they mean nothing without it. */
export interface Machine {
  readonly nproc: number;
  readonly cpuModel: string;
  readonly memoryGiB: number;
  readonly node: string;
  readonly platform: string;
}

export function describeMachine(): Machine {
  const list = cpus();
  return {
    nproc: list.length,
    cpuModel: list[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round((totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
  };
}

/** The 1, 5 and 15 minute load averages, rounded, as `uptime` shows them. */
export function loadAverage(): [number, number, number] {
  const [a = 0, b = 0, c = 0] = loadavg().map((v) => Math.round(v * 100) / 100);
  return [a, b, c];
}

/** Resident memory of a process in bytes (Linux /proc), or undefined when it is gone. */
export async function residentBytes(pid: number): Promise<number | undefined> {
  const { readFile } = await import('node:fs/promises');
  try {
    const status = await readFile(`/proc/${pid}/status`, 'utf8');
    const kb = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1];
    return kb === undefined ? undefined : Number(kb) * 1024;
  } catch {
    return undefined;
  }
}

/** CPU time (user + system) a process has used so far, in ms (Linux /proc, clock ticks of 10 ms). */
export async function cpuMs(pid: number): Promise<number | undefined> {
  const { readFile } = await import('node:fs/promises');
  try {
    const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start at the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return (ticks * 1000) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** USER_HZ, which is 100 on Linux for every architecture Node runs on. */
const TICKS_PER_SECOND = 100;
