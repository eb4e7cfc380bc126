// `npm run bench:profile -- --target event-log|users-current|startup [--sources] [--fake-args "--journal-size 0"]`: runs the
// fake (the CLI from its build in dist/, built first; with --sources the TypeScript sources
// through tsx) under --cpu-prof, either loaded by autocannon for --seconds or until its first
// 200, and prints where its CPU time went. The profile stays in --dir for Chrome DevTools.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { mainProfile, summarize } from './lib/cpu-profile.js';
import { adminBasic, buildDist, countedLimitsFile, fakeCliCommand, fromSources, startServer } from './lib/servers.js';
import { measureThroughput } from './lib/throughput.js';
import { issueToken } from './sections/throughput.js';

const { values } = parseArgs({
  options: {
    target: { type: 'string', default: 'event-log' },
    seconds: { type: 'string', default: '10' },
    records: { type: 'string', default: '10000' },
    dir: { type: 'string' },
    sources: { type: 'boolean', default: false },
    /** More flags for `serve`, space-separated, e.g. `--journal-size 0 --log-level info`. */
    'fake-args': { type: 'string', default: '' },
  },
});
const dir = values.dir ?? mkdtempSync(join(tmpdir(), 'fake-profile-'));
const startup = values.target === 'startup';
const extra = String(values['fake-args']).split(' ').filter(Boolean);
const cli = fakeCliCommand(Number(values.records), [...(startup ? [] : ['--rate-limit', countedLimitsFile]), ...extra]);
if (!values.sources) buildDist();
const base = values.sources ? fromSources(cli) : cli;
// Node's flags go before the script (the bin).
const server = await startServer({ ...base, args: ['--cpu-prof', '--cpu-prof-dir', dir, ...base.args] });
try {
  if (!startup) {
    const token = await issueToken(server.origin);
    const target =
      values.target === 'users-current'
        ? { url: `${server.origin}/node/api/users/current`, headers: { authorization: adminBasic } }
        : { url: `${server.origin}/node/api/event-log?limit=50&api-token=${token}` };
    const figures = await measureThroughput(target, { connections: 10, duration: Number(values.seconds), warmup: 0 }, server.pid);
    console.log(`${values.target}: ${figures.requestsPerSecond} req/s, ${figures.cpuMicrosPerRequest ?? '?'} µs CPU/request (under the profiler)`);
  } else {
    console.log(`start-up: first 200 after ${Math.round(server.startupMs)} ms (${server.startupCpuMs} ms CPU, under the profiler)`);
  }
} finally {
  await server.stop();
}
console.log(`profile in ${dir}\n`);
console.log(summarize(mainProfile(dir)));
