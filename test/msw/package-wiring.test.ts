// `monitoring-api-kit/msw` as consumers get it: a subpath of its own, msw loaded only there, and
// the module bundles for a browser (the forwarding form, for Storybook or a dev build).
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const pkg = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as {
  exports: Record<string, unknown>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};

/** A loader hook that refuses to resolve msw, then imports `specifier`: prints what the import did. */
async function importWithoutMsw(specifier: string): Promise<string> {
  const hook = `export async function resolve(specifier, context, next) {
    if (specifier === 'msw' || specifier.startsWith('msw/')) throw new Error('msw was loaded by ' + context.parentURL);
    return next(specifier, context);
  }`;
  const script = `
    import { register } from 'node:module';
    register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(hook)}));
    try { const entry = await import(${JSON.stringify(specifier)}); console.log('loaded: ' + Object.keys(entry).sort().join(' ')); }
    catch (error) { console.log('refused: ' + error.message); }`;
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', script], { cwd: root });
  return stdout.trim();
}

describe('monitoring-api-kit/msw', () => {
  it('is an export of its own (types and import), with msw an optional peer', () => {
    expect(pkg.exports['./msw']).toEqual({ types: './dist/msw/index.d.ts', import: './dist/msw/index.js' });
    expect(pkg.peerDependencies.msw).toMatch(/\^2\./);
    expect(pkg.peerDependenciesMeta.msw).toEqual({ optional: true });
  });

  it('the main entry never loads msw; the msw entry does', async () => {
    expect(await importWithoutMsw('monitoring-api-kit')).toMatch(/^loaded: .*\bcreateFake\b/);
    expect(await importWithoutMsw('monitoring-api-kit/msw')).toMatch(/^refused: msw was loaded by .*\/dist\/msw\//);
  });

  it('bundles for a browser (msw left to the app), with nothing of Node in it', async () => {
    const result = await build({
      entryPoints: [`${root}src/msw/index.ts`],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      external: ['msw'],
      write: false,
      metafile: true,
      logLevel: 'silent',
    });
    const [output] = Object.values(result.metafile.outputs);
    expect(new Set(output!.imports.map((i) => i.path))).toEqual(new Set(['msw']));
    expect(result.outputFiles[0]!.text).not.toMatch(/["']node:/);
  });
});
