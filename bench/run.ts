// `npm run bench`: the fake against bare Fastify and Prism, side by side in one run on this
// machine, and the fake at scale. Writes JSON and prints a Markdown table. Never run by npm test.
// Options: --sections throughput,startup,load,scale,contract,msw  --duration 3  --warmup 3
//          --connections 10  --rounds 9  --records 10000  --startup-runs 5  --load-runs 7  --creates 10
//          --scale 10000,100000,1000000  --latency-runs 200  --msw-runs 300  --out bench/results/latest.json
//          --render <results.json> (print the Markdown of an earlier run, measuring nothing)
import { rmSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { describeMachine, loadAverage } from './lib/machine.js';
import { evaluateTargets, renderMarkdown, type BenchResults } from './lib/report.js';
import { installedSize, installKit } from '../tools/installed-kit.js';
import { buildDist, fakeCliCommand, fakeCommand, fromSources, root, withLogLevel } from './lib/servers.js';
import { hasCheckCommand, runContract } from './sections/contract.js';
import { packageEntry, runLoad } from './sections/load.js';
import { runMsw } from './sections/msw.js';
import { runScale } from './sections/scale.js';
import { runStartup } from './sections/startup.js';
import { JOURNAL_VARIANTS, LOGGED_VARIANT, runThroughput } from './sections/throughput.js';

const { values } = parseArgs({
  options: {
    sections: { type: 'string', default: 'throughput,startup,load,scale,contract,msw' },
    duration: { type: 'string', default: '3' },
    warmup: { type: 'string', default: '3' },
    connections: { type: 'string', default: '10' },
    rounds: { type: 'string', default: '9' },
    records: { type: 'string', default: '10000' },
    'startup-runs': { type: 'string', default: '5' },
    'load-runs': { type: 'string', default: '7' },
    creates: { type: 'string', default: '10' },
    scale: { type: 'string', default: '10000,100000,1000000' },
    'latency-runs': { type: 'string', default: '200' },
    'msw-runs': { type: 'string', default: '300' },
    out: { type: 'string', default: 'bench/results/latest.json' },
    render: { type: 'string' },
  },
});
if (values.render !== undefined) {
  const { readFile } = await import('node:fs/promises');
  console.log(renderMarkdown(JSON.parse(await readFile(values.render, 'utf8')) as BenchResults));
  process.exit(0);
}
const num = (name: keyof typeof values) => {
  const n = Number(values[name]);
  if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} must be a number`);
  return n;
};
const sections = new Set(String(values.sections).split(','));
const log = (line: string) => console.error(`[bench] ${line}`);
const records = num('records');

log('building dist/ (npm run build): the scale benchmark and the profile run the build of this checkout');
buildDist();
// The fake as users run it: the packed kit installed into an empty project, its bin.
log('packing the kit and installing the tarball into a temporary project (npm install --prefer-offline)');
const kit = await installKit();
process.once('exit', () => rmSync(kit.project, { recursive: true, force: true }));
const installed = await installedSize(kit);
log(`installed: ${(installed.bytes / 1e6).toFixed(1)} MB in ${installed.packages} packages`);
const fake = fakeCommand(records, 'fake', kit.bin);
const startedAt = new Date().toISOString();
const start = loadAverage();
log(`load average at start: ${start.join(', ')}`);
const partial: Omit<BenchResults, 'targets' | 'finishedAt' | 'loadAverage'> & { -readonly [K in 'throughput' | 'startup' | 'load' | 'scale' | 'contract' | 'msw']?: BenchResults[K] } = {
  command: `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
  startedAt,
  machine: describeMachine(),
  installed,
};

if (sections.has('throughput')) {
  const settings = { connections: num('connections'), duration: num('duration'), warmup: num('warmup') };
  // The fake without a logger (as Prism runs here), also without its request journal, and as users run it: `--log-level warn`,
  // and the default level (info: a line per request) written to a pipe the bench reads. The one
  // floor left is the fake at the default level against bare Fastify at that level (throughput.ts); the other ratios are shown, not goals.
  const fakes = [
    { key: 'fake', label: 'the fake, --log-level silent', command: fake },
    // The request journal's cost: the same, with the journal switched off.
    { key: JOURNAL_VARIANTS.off, label: 'the fake, --log-level silent --journal-size 0', command: { ...fake, args: [...fake.args, '--journal-size', '0'] } },
    { key: 'fake-warn', label: 'the fake, --log-level warn', command: withLogLevel(fake, 'warn') },
    { key: LOGGED_VARIANT, label: 'the fake, default level (info) to a pipe', command: withLogLevel(fake, 'info') },
  ];
  partial.throughput = await runThroughput({ settings, rounds: num('rounds'), records, fakes, log });
}
if (sections.has('startup')) {
  // Start-up as a user sees it: the installed package's `serve --records N`, every other setting at its default.
  // For comparison, the same command from this checkout's sources through tsx (as the bin runs after an edit, before a build).
  const installedServe = fakeCliCommand(records, [], 'fake', kit.bin);
  partial.startup = await runStartup({ runs: num('startup-runs'), records, fake: installedServe, extra: fromSources(fakeCliCommand(records)), log });
}
if (sections.has('load')) {
  // What a test file pays: importing the installed package (its exports' entry), then createFake() with its defaults.
  partial.load = runLoad({ entry: await packageEntry(kit.packageDir), processes: num('load-runs'), creates: num('creates'), log });
}
if (sections.has('scale')) {
  const sizes = String(values.scale).split(',').map(Number);
  partial.scale = await runScale({ sizes, runs: num('latency-runs'), log });
}
if (sections.has('contract')) {
  const checkArgs = (origin: string) => ['check', '--base-url', origin, '--seed', '1', '--quiet'];
  // The fake's seeded logins, through the environment so that no password is in a command line.
  const credentials = { MONITORING_API_LOGIN: 'admin', MONITORING_API_PASSWORD: 'admin-password', MONITORING_API_LOW_LOGIN: 'viewer', MONITORING_API_LOW_PASSWORD: 'viewer-password' };
  if (hasCheckCommand(kit.bin)) partial.contract = await runContract({ fake, bin: kit.bin, checkArgs, env: credentials, log });
  else log('contract suite: no `check` command in this checkout; left out');
}
if (sections.has('msw')) {
  // A frontend test's own cost with monitoring-api-kit/msw: reset, then one request through MSW, beside the same through inject.
  partial.msw = runMsw({ runs: num('msw-runs'), records: 1000, log });
}

const done = { ...partial, finishedAt: new Date().toISOString(), loadAverage: { start, end: loadAverage() } };
const results: BenchResults = { ...done, targets: evaluateTargets(done) };
const out = resolve(root, String(values.out));
await mkdir(dirname(out), { recursive: true });
await writeFile(out, `${JSON.stringify(results, null, 2)}\n`);
console.log(renderMarkdown(results));
log(`results written to ${out}`);
