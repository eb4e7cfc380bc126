// The runner speaks only HTTP: it must work against servers it knows nothing of, so it may
// use the document (src/spec) but never the fake's code.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const contractDir = join(root, 'src/contract');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

const IMPORT = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function importsOf(path: string): string[] {
  return [...readFileSync(path, 'utf8').matchAll(IMPORT)].map((m) => m[1] ?? m[2] ?? '');
}

describe('src/contract imports', () => {
  const all = files(contractDir);

  it('finds the runner sources and their imports', () => {
    expect(all.length).toBeGreaterThan(30);
    expect(importsOf(join(contractDir, 'run/run-contract.ts'))).toContain('../../spec/index.js');
  });

  it('never imports src/server or src/store', () => {
    const offending: string[] = [];
    for (const path of all) {
      for (const spec of importsOf(path)) {
        if (!spec.startsWith('.')) continue;
        const target = relative(root, resolve(path, '..', spec));
        if (/^src[\\/](server|store)([\\/]|$)/.test(target)) offending.push(`${relative(root, path)} -> ${spec}`);
      }
    }
    expect(offending).toEqual([]);
  });

  it('recognises an offending import when there is one', () => {
    const line = "import { buildFake } from '../../server/build.js';";
    const [spec] = [...line.matchAll(IMPORT)].map((m) => m[1]);
    const target = relative(root, resolve(contractDir, 'run', spec ?? ''));
    expect(target).toMatch(/^src[\\/]server/);
  });
});
