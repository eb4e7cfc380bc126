import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';

const include = ['test/**/*.test.ts'];
// A file that replaces a module with vi.mock needs a module graph of its own; every other file
// shares its worker's modules (the documents, Ajv's compiled schemas), loaded once per worker.
// The packed-package install test runs apart (`npm run test:package`): it packs and installs the kit.
const packageTest = 'test/package/**';
const mocking = readdirSync('test', { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.test.ts'))
  .map((file) => join('test', file))
  .filter((file) => /\bvi\.(mock|doMock)\(/.test(readFileSync(file, 'utf8')));

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Many files wait on child processes and sockets: more files at once than the 2 cores.
    maxWorkers: 3,
    projects: [
      { extends: true, test: { name: 'shared', isolate: false, include, exclude: [...configDefaults.exclude, packageTest, ...mocking] } },
      { extends: true, test: { name: 'isolated', include: mocking } },
      { extends: true, test: { name: 'package', include: [packageTest] } },
    ],
  },
});
