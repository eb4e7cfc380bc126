// What a test file pays for the kit, in a fresh Node process: the wall time of importing the
// package entry, then of `createFake()` with its defaults, `--creates` times (the first apart:
// it compiles the document's schemas). Run by `npm run bench` (section load) once per process;
// prints JSON on stdout.
//   node bench/package-load.mjs <the package's entry file> [--creates 10]
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const { positionals, values } = parseArgs({ allowPositionals: true, options: { creates: { type: 'string', default: '10' } } });
const entry = positionals[0];
if (!entry) throw new Error('usage: node bench/package-load.mjs <entry file> [--creates N]');

const started = performance.now();
const { createFake } = await import(pathToFileURL(entry).href);
const importMs = performance.now() - started;
const createMs = [];
for (let i = 0; i < Number(values.creates); i++) {
  const at = performance.now();
  const fake = await createFake();
  createMs.push(performance.now() - at);
  await fake.close();
}
console.log(JSON.stringify({ importMs, createMs }));
