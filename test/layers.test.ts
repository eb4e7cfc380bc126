// The layer rule: which folder of src/ may import which. Every arrow points down, so no two
// folders depend on each other. The runner (src/contract) speaks only HTTP: it must work
// against servers it knows nothing of, so it may use the document (src/spec) and the neutral
// helpers (src/shared) but never the fake's code. docs/development.md's Layout section shows this table.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const src = join(root, 'src');

type Layer = 'shared' | 'spec' | 'store' | 'seed' | 'server' | 'ingest' | 'live' | 'fake' | 'msw' | 'contract' | 'record' | 'cli' | 'entry';

/** What each layer may import besides itself. */
const MAY_IMPORT: Readonly<Record<Layer, readonly Layer[]>> = {
  shared: [],
  spec: ['shared'],
  store: ['spec', 'shared'],
  seed: ['spec', 'shared'],
  server: ['store', 'seed', 'spec', 'shared'],
  ingest: ['spec', 'shared'],
  live: ['seed', 'spec', 'shared'],
  fake: ['server', 'ingest', 'live', 'spec', 'shared'],
  // MSW handlers answered by a fake it is handed (`monitoring-api-kit/msw`): the fake's types only.
  msw: ['fake'],
  contract: ['spec', 'shared'],
  // Like the runner, the recorder speaks only HTTP: it reuses the runner's client, never the fake's code.
  record: ['contract', 'spec', 'shared'],
  cli: ['fake', 'contract', 'record', 'server', 'seed', 'live', 'spec', 'shared'],
  entry: ['fake', 'server', 'live', 'spec', 'shared'],
};

/** The layer of a file under src/: its folder; the package entry and the server's error list at the top. */
function layerOf(path: string): Layer {
  const parts = relative(src, path).split(sep);
  if (parts.length === 1) {
    if (parts[0] === 'index.ts') return 'entry';
    if (parts[0] === 'errors.ts') return 'server';
  }
  const folder = parts[0] as Layer;
  if (!(folder in MAY_IMPORT) || folder === 'entry') throw new Error(`${relative(root, path)} is in no layer: add its folder to MAY_IMPORT`);
  return folder;
}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

const IMPORT = /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

function importsOf(text: string): string[] {
  return [...text.matchAll(IMPORT)].map((m) => m[1] ?? m[2] ?? '');
}

/** The imports of `path` (a file under src/) that break the rule, as `file -> import`. */
function offences(path: string, text = readFileSync(path, 'utf8')): string[] {
  const from = layerOf(path);
  return importsOf(text)
    .filter((spec) => spec.startsWith('.'))
    .filter((spec) => {
      const to = layerOf(resolve(path, '..', spec.replace(/\.js$/, '.ts')));
      return to !== from && !MAY_IMPORT[from].includes(to);
    })
    .map((spec) => `${relative(root, path)} -> ${spec}`);
}

describe('the layer rule', () => {
  const all = files(src);

  it('finds the sources and their imports', () => {
    expect(all.length).toBeGreaterThan(50);
    expect(importsOf(readFileSync(join(src, 'contract/run/run-contract.ts'), 'utf8'))).toContain('../../spec/index.js');
  });

  it('holds for every import of src/', () => {
    expect(all.flatMap((path) => offences(path))).toEqual([]);
  });

  it('keeps the store to data: no HTTP, no files, no document reading', () => {
    const outside = /^(?:node:)?(?:fs|fs\/promises|http|https|net|dgram)$|^(?:fastify|@fastify\/|undici|js-yaml|yaml)/;
    const store = all.filter((path) => layerOf(path) === 'store');
    expect(store.length).toBeGreaterThan(3);
    expect(store.flatMap((path) => importsOf(readFileSync(path, 'utf8')).filter((spec) => outside.test(spec)).map((spec) => `${relative(root, path)} -> ${spec}`))).toEqual([]);
    expect(outside.test('node:fs') && outside.test('fastify') && outside.test('@fastify/cookie') && !outside.test('mingo/query')).toBe(true);
  });

  it('points one way: no two layers may import each other, directly or through others', () => {
    const reaches = (from: Layer, to: Layer, seen = new Set<Layer>()): boolean =>
      MAY_IMPORT[from].some((next) => next === to || (!seen.has(next) && (seen.add(next), reaches(next, to, seen))));
    for (const layer of Object.keys(MAY_IMPORT) as Layer[]) expect(reaches(layer, layer), layer).toBe(false);
  });

  it('recognises an offending import when there is one', () => {
    const runner = join(src, 'contract/run/run-contract.ts');
    expect(offences(runner, "import { buildFake } from '../../server/build.js';")).toEqual(['src/contract/run/run-contract.ts -> ../../server/build.js']);
    expect(offences(join(src, 'store/state.ts'), "import type { X } from '../seed/seed-records.js';")).toHaveLength(1);
    expect(offences(join(src, 'seed/seed-records.ts'), "const m = await import('../store/state.js');")).toHaveLength(1);
    expect(offences(join(src, 'store/state.ts'), "export * from '../spec/index.js';")).toEqual([]);
    expect(offences(join(src, 'record/record-server.ts'), "import { buildFake } from '../server/build.js';")).toHaveLength(1);
    expect(offences(join(src, 'record/record-server.ts'), "import { seedRecords } from '../seed/seed-records.js';")).toHaveLength(1);
    expect(offences(join(src, 'record/record-server.ts'), "import { createSecrets } from '../shared/redaction/secret-values.js';")).toEqual([]);
  });
});
