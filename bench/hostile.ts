// `npm run bench:hostile`: hostile requests against a listening fake while it serves normal
// traffic. Measures how fast each kind is answered (and with what) and how much the normal
// traffic notices. The hostile requests come from a process of their own. (The dearest
// request a filter may make and still be answered, a full scan, is in the scale table of
// `npm run bench`.) Then a flood of slow connections (bench/lib/slow-connections.ts) while new
// connections are served, and slow readers of the whole log (bench/lib/slow-readers.ts). New
// connections during both are timed from a process of their own (bench/probe-client.ts), and the
// fake's own event-loop delay over both is read from inside it (bench/lib/loop-delay-probe.mjs):
// on two cores the clients and the kernel's loopback work compete with the fake for the CPU, so
// a slow new connection alone does not say that the fake held its event loop.
// Options: --records 100000  --seconds 10  --repeat 20  --flood 2000  --readers 50
// --out bench/results/hostile.json
import { mkdtempSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { pathToFileURL } from 'node:url';
import { dirname, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import type { HostileResult } from './lib/hostile-requests.js';
import { connect, send } from './lib/http.js';
import { cpuMs, describeMachine, loadAverage } from './lib/machine.js';
import { fmt, table } from './lib/markdown.js';
import { adminBasic, buildDist, fakeCommand, root, startServer } from './lib/servers.js';
import { quantile, round } from './lib/stats.js';

const { values } = parseArgs({
  options: {
    records: { type: 'string', default: '100000' },
    seconds: { type: 'string', default: '10' },
    repeat: { type: 'string', default: '20' },
    flood: { type: 'string', default: '2000' },
    readers: { type: 'string', default: '50' },
    out: { type: 'string', default: 'bench/results/hostile.json' },
  },
});
const records = Number(values.records);
const seconds = Number(values.seconds);
const repeat = Number(values.repeat);
const flood = Number(values.flood);
const readers = Number(values.readers);

const describeCounts = (counts: Record<number, number>) =>
  Object.entries(counts)
    .map(([status, n]) => `${status === '0' ? 'no answer (connection failed)' : status === '-1' ? 'not shed by the deadline' : status} ×${n}`)
    .join(', ');

const execFileAsync = promisify(execFile);
// The fake as `monitoring-api-kit serve` runs it after npm ci: from its build.
buildDist();
const load = { start: loadAverage() };
// The fake's own event-loop delay, read in the slow-reader and flood phases (bench/lib/loop-delay.ts).
process.env.BENCH_LOOP_DELAY_FILE = join(mkdtempSync(join(tmpdir(), 'bench-loop-delay-')), 'delay.json');
const command = fakeCommand(records);
const probe = pathToFileURL(`${root}bench/lib/loop-delay-probe.mjs`).href;
const server = await startServer({ ...command, args: ['--import', probe, ...command.args] }, { timeoutMs: 300_000 });
const background = { url: `${server.origin}/node/api/users/current`, headers: { authorization: adminBasic }, connections: 4 };
try {
  const client = connect(server.origin);
  const list = await send(client, '/node/api/event-log?type=1&limit=1', { headers: { authorization: adminBasic } });
  const recordId = (JSON.parse(list.body) as { _id: string }[])[0]?._id ?? '000000000000000000000000';

  /** Normal traffic with each answer's exact time (autocannon's own histogram keeps whole ms). */
  const normalTraffic = (duration: number) => {
    const times: number[] = [];
    const started = performance.now();
    const cpuBefore = cpuMs(server.pid);
    const run = autocannon({ ...background, duration });
    run.on('response', (_client, _status, _bytes, ms) => times.push(ms));
    const done = run.then(async (r) => {
      const elapsed = (performance.now() - started) / 1000;
      const serverCpuMs = ((await cpuMs(server.pid)) ?? 0) - ((await cpuBefore) ?? 0);
      return {
        seconds: round(elapsed, 1),
        /** The fake's CPU time over the phase, as a share of one core. */
        serverCpuShare: round(serverCpuMs / 1000 / elapsed, 2),
        requestsPerSecond: Math.round(r.requests.total / elapsed),
        p50Ms: round(quantile(times, 0.5), 2),
        p99Ms: round(quantile(times, 0.99), 2),
        non2xx: r.non2xx,
        errors: r.errors + r.timeouts,
      };
    });
    return { stop: () => run.stop(), done };
  };

  console.error(`[hostile] baseline: normal traffic alone for ${seconds} s`);
  const baseline = await normalTraffic(seconds).done;

  console.error(`[hostile] normal traffic with hostile requests, ${repeat} of each kind`);
  // Runs until the hostile client is done (stopped below), however long that takes.
  const during = normalTraffic(3_600);
  await new Promise((r) => setTimeout(r, 1000));
  // Not spawnSync: the load generator shares this event loop.
  const { stdout, stderr } = await execFileAsync(process.execPath, ['--import', 'tsx', `${root}bench/hostile-client.ts`, server.origin, recordId, String(repeat), String(flood), String(server.pid), String(readers)], {
    cwd: root,
    maxBuffer: 10 * 1024 * 1024,
  }).finally(() => during.stop());
  process.stderr.write(stderr);
  const loaded = await during.done;
  const results = JSON.parse(stdout) as HostileResult[];
  await client.close();

  const report = {
    command: `npm run bench:hostile${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
    machine: describeMachine(),
    loadAverage: { ...load, end: loadAverage() },
    records,
    hostile: results,
    normalTraffic: { alone: baseline, withHostile: loaded },
  };
  const out = resolve(root, String(values.out));
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out, `${JSON.stringify(report, null, 2)}\n`);
  const ok = (r: (typeof results)[number]) => Object.keys(r.statuses).every((status) => r.expect.includes(Number(status)));
  console.log(
    [
      `## Hostile requests (${fmt.count(records)} records; ${repeat} of each, one at a time, while 4 connections of GET /users/current run)`,
      '',
      `Command: \`${report.command}\``,
      `Machine: ${report.machine.nproc} × ${report.machine.cpuModel}, Node ${report.machine.node}; load average ${report.loadAverage.start.join(', ')} at start, ${report.loadAverage.end.join(', ')} at end`,
      '',
      table(
        ['Request', 'answer', 'p50 ms', 'p99 ms', 'max ms', 'goal: within ms', ''],
        results.map((r) => [
          r.label,
          describeCounts(r.statuses) || '—',
          fmt.ms(r.p50Ms),
          fmt.ms(r.p99Ms),
          fmt.ms(r.maxMs),
          fmt.ms(r.withinMs),
          !ok(r) ? `**expected ${r.expect.join(' or ')}**` : r.maxMs < r.withinMs ? 'ok' : '**slow**',
        ]),
      ),
      '',
      `GET /users/current p99 while the hostile requests are sent: ${report.normalTraffic.withHostile.p99Ms} ms (goal: under 100 ms).`,
      '',
      table(
        ['Normal traffic (GET /users/current, 4 connections)', 'seconds', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'errors', "the fake's CPU (cores)"],
        (
          [
            ['alone', report.normalTraffic.alone],
            ['while the hostile requests are sent', report.normalTraffic.withHostile],
          ] as const
        ).map(([label, t]) => [label, t.seconds, fmt.rps(t.requestsPerSecond), t.p50Ms, t.p99Ms, t.non2xx, t.errors, t.serverCpuShare]),
      ),
    ].join('\n'),
  );
  if (!results.every(ok) || loaded.non2xx > 0) process.exitCode = 1;
} finally {
  await server.stop();
}
