import { spawnSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { root } from '../lib/servers.js';
import { median, round } from '../lib/stats.js';

export interface LoadResult {
  readonly entry: string;
  readonly processes: number;
  readonly creates: number;
  /** Milliseconds of `await import(entry)`, each process. */
  readonly importMs: number[];
  /** Milliseconds of each process's first `createFake()`. */
  readonly firstCreateMs: number[];
  /** Milliseconds of every later `createFake()`, all processes. */
  readonly laterCreateMs: number[];
  readonly importMedianMs: number;
  readonly firstCreateMedianMs: number;
  readonly laterCreateMedianMs: number;
}

/** The file `import 'monitoring-api-kit'` loads: the `import` condition of the package's `.` export. */
export async function packageEntry(packageDir: string): Promise<string> {
  const manifest = JSON.parse(await readFile(join(packageDir, 'package.json'), 'utf8')) as { exports: { '.': { import: string } } };
  return join(packageDir, manifest.exports['.'].import);
}

/** Import of the package and `createFake()`: bench/package-load.mjs in `processes` fresh processes, one after the other. */
export function runLoad(options: { readonly entry: string; readonly processes: number; readonly creates: number; readonly log: (line: string) => void }): LoadResult {
  const importMs: number[] = [];
  const firstCreateMs: number[] = [];
  const laterCreateMs: number[] = [];
  for (let i = 0; i < options.processes; i++) {
    const child = spawnSync(process.execPath, ['bench/package-load.mjs', options.entry, '--creates', String(options.creates)], { cwd: root, encoding: 'utf8' });
    if (child.status !== 0) throw new Error(`bench/package-load.mjs failed:\n${child.stderr}`);
    const measured = JSON.parse(child.stdout) as { importMs: number; createMs: number[] };
    const [first = Number.NaN, ...later] = measured.createMs.map((ms) => round(ms, 1));
    importMs.push(round(measured.importMs, 0));
    firstCreateMs.push(first);
    laterCreateMs.push(...later);
    options.log(`load: import ${Math.round(measured.importMs)} ms, first createFake ${first} ms, later ${later.join(', ')} ms`);
  }
  return {
    entry: options.entry,
    processes: options.processes,
    creates: options.creates,
    importMs,
    firstCreateMs,
    laterCreateMs,
    importMedianMs: median(importMs),
    firstCreateMedianMs: median(firstCreateMs),
    laterCreateMedianMs: median(laterCreateMs),
  };
}
