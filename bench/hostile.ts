// `npm run bench:hostile`: hostile requests against a listening fake while it serves normal
// traffic. Measures how fast each kind is answered (and with what) and how much the normal
// traffic notices. Options: --records 100000  --seconds 10  --repeat 20  --out bench/results/hostile.json
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { streamingUpload } from '../test/helpers/streaming-upload.js';
import { connect, send } from './lib/http.js';
import { describeMachine, loadAverage } from './lib/machine.js';
import { fmt, table } from './lib/markdown.js';
import { adminBasic, fakeCommand, root, startServer } from './lib/servers.js';
import { quantile, round } from './lib/stats.js';

const { values } = parseArgs({
  options: {
    records: { type: 'string', default: '100000' },
    seconds: { type: 'string', default: '10' },
    repeat: { type: 'string', default: '20' },
    out: { type: 'string', default: 'bench/results/hostile.json' },
  },
});
const records = Number(values.records);
const seconds = Number(values.seconds);
const repeat = Number(values.repeat);

const operatorBasic = `Basic ${Buffer.from('operator:operator-password').toString('base64')}`;
const filterPath = (filter: string) => `/node/api/event-log?limit=50&filter=${encodeURIComponent(filter)}`;

interface Hostile {
  readonly label: string;
  readonly expect: number;
  readonly request: (recordId: string) => { path: string; method?: 'GET' | 'POST' | 'PATCH'; headers?: Record<string, string>; body?: string };
}

const bigBody = JSON.stringify({ login: 'admin', password: 'x'.repeat(70 * 1024) });
const hugeBody = JSON.stringify({ text: 'x'.repeat(5 * 1024 * 1024) });
const HOSTILE: readonly Hostile[] = [
  { label: 'POST /users/session, 70 KiB body', expect: 413, request: () => ({ path: '/node/api/users/session', method: 'POST', headers: { 'content-type': 'application/json' }, body: bigBody }) },
  {
    label: 'PATCH payload, 5 MiB body',
    expect: 413,
    request: (id) => ({ path: `/node/api/event-log/${id}/payload`, method: 'PATCH', headers: { authorization: operatorBasic, 'content-type': 'application/json' }, body: hugeBody }),
  },
  { label: 'filter nested 1,000 levels', expect: 400, request: () => ({ path: filterPath('{"a":'.repeat(1000) + '1' + '}'.repeat(1000)) }) },
  { label: 'filter $and nested 500 levels', expect: 400, request: () => ({ path: filterPath('{"$and":['.repeat(500) + '{"type":"snmp-trap"}' + ']}'.repeat(500)) }) },
  { label: 'regex (a+)+$', expect: 400, request: () => ({ path: filterPath('{"payload.text":{"$regex":"(a+)+$"}}') }) },
  { label: 'regex ^(([a-z])+.)+[A-Z]([a-z])+$', expect: 400, request: () => ({ path: filterPath('{"payload.text":{"$regex":"^(([a-z])+.)+[A-Z]([a-z])+$"}}') }) },
  { label: 'regex (.*a){20}', expect: 400, request: () => ({ path: filterPath('{"payload.text":{"$regex":"(.*a){20}"}}') }) },
  { label: '$where', expect: 400, request: () => ({ path: filterPath('{"$where":"while(true){}"}') }) },
  // Accepted, and the dearest thing a filter may ask: a regex tried on every record.
  { label: 'accepted regex, no match, full scan (for scale)', expect: 200, request: () => ({ path: filterPath('{"payload.text":{"$regex":"^no such text .* at all$"}}') }) },
];

const describeCounts = (counts: Record<number, number>) =>
  Object.entries(counts)
    .map(([status, n]) => `${status === '0' ? 'no answer (connection failed)' : status} ×${n}`)
    .join(', ');

const load = { start: loadAverage() };
const server = await startServer(fakeCommand(records), { timeoutMs: 300_000 });
const background = { url: `${server.origin}/node/api/users/current`, headers: { authorization: adminBasic }, connections: 4 };
try {
  const client = connect(server.origin);
  const list = await send(client, '/node/api/event-log?type=1&limit=1', { headers: { authorization: adminBasic } });
  const recordId = (JSON.parse(list.body) as { _id: string }[])[0]?._id ?? '000000000000000000000000';

  console.error(`[hostile] baseline: normal traffic alone for ${seconds} s`);
  const baseline = await autocannon({ ...background, duration: seconds });

  console.error(`[hostile] normal traffic with hostile requests, ${repeat} of each kind`);
  const during = autocannon({ ...background, duration: seconds * 3 });
  await new Promise((r) => setTimeout(r, 1000));
  const results: { label: string; expect: number; statuses: Record<number, number>; p50Ms: number; p99Ms: number; maxMs: number }[] = [];
  for (const hostile of HOSTILE) {
    const times: number[] = [];
    const counts = new Map<number, number>();
    // A fresh connection each time, as a client sending such a request would have.
    for (let i = 0; i < repeat; i++) {
      const { path, ...init } = hostile.request(recordId);
      const answer = await streamingUpload(`${server.origin}${path}`, { ...init, headers: { authorization: adminBasic, ...init.headers } });
      counts.set(answer.status, (counts.get(answer.status) ?? 0) + 1);
      times.push(answer.ms);
    }
    const row = { label: hostile.label, expect: hostile.expect, statuses: Object.fromEntries(counts) as Record<number, number>, p50Ms: round(quantile(times, 0.5), 2), p99Ms: round(quantile(times, 0.99), 2), maxMs: round(Math.max(...times), 2) };
    console.error(`[hostile] ${row.label}: ${describeCounts(row.statuses)} p50 ${row.p50Ms} ms, max ${row.maxMs} ms`);
    results.push(row);
  }
  during.stop();
  const loaded = await during;
  await client.close();

  const normal = (r: typeof baseline) => ({
    requestsPerSecond: Math.round(r.requests.total / r.duration),
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
  });
  const report = {
    command: `npm run bench:hostile${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
    machine: describeMachine(),
    loadAverage: { ...load, end: loadAverage() },
    records,
    hostile: results,
    normalTraffic: { alone: normal(baseline), withHostile: normal(loaded) },
  };
  const out = resolve(root, String(values.out));
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out, `${JSON.stringify(report, null, 2)}\n`);
  const ok = (r: (typeof results)[number]) => Object.keys(r.statuses).every((status) => Number(status) === r.expect);
  console.log(
    [
      `## Hostile requests (${fmt.count(records)} records; ${repeat} of each, one at a time, while 4 connections of GET /users/current run)`,
      '',
      `Command: \`${report.command}\``,
      `Machine: ${report.machine.nproc} × ${report.machine.cpuModel}, Node ${report.machine.node}; load average ${report.loadAverage.start.join(', ')} at start, ${report.loadAverage.end.join(', ')} at end`,
      '',
      table(
        ['Request', 'answer', 'p50 ms', 'p99 ms', 'max ms', ''],
        results.map((r) => [r.label, describeCounts(r.statuses), fmt.ms(r.p50Ms), fmt.ms(r.p99Ms), fmt.ms(r.maxMs), ok(r) ? (r.maxMs < 100 || r.expect === 200 ? 'ok' : '**slow**') : `**expected ${r.expect}**`]),
      ),
      '',
      table(
        ['Normal traffic (GET /users/current, 4 connections)', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'errors'],
        [
          ['alone', fmt.rps(report.normalTraffic.alone.requestsPerSecond), report.normalTraffic.alone.p50Ms, report.normalTraffic.alone.p99Ms, report.normalTraffic.alone.non2xx, report.normalTraffic.alone.errors],
          ['with the hostile requests', fmt.rps(report.normalTraffic.withHostile.requestsPerSecond), report.normalTraffic.withHostile.p50Ms, report.normalTraffic.withHostile.p99Ms, report.normalTraffic.withHostile.non2xx, report.normalTraffic.withHostile.errors],
        ],
      ),
    ].join('\n'),
  );
  if (!results.every(ok) || loaded.non2xx > 0) process.exitCode = 1;
} finally {
  await server.stop();
}
