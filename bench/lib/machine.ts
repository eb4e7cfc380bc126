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
