// `npm run soak`: minutes of mixed traffic against a listening fake (the CLI), with many
// session log-ins, sampling the server's resident memory and its session count (control
// API). Reports memory growth after the warm-up (target < 10 %) and whether the session
// store stayed within its bound: the store's size, or the per-user bound times the three
// users who log in, whichever is smaller (200 log-ins a second reach it within the warm-up,
// default 60 s): growth is measured from there.
// Options: --seconds 300  --warmup 60  --sample 5
// --records 10000  --rate 800 (requests per second, all streams)  --out bench/results/soak.json
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon, { type Request } from 'autocannon';
import { fakeDefaults } from '../src/server/options.js';
import { connect, send } from './lib/http.js';
import { describeMachine, loadAverage } from './lib/machine.js';
import { fmt, table } from './lib/markdown.js';
import { adminBasic, buildDist, fakeCommand, root, startServer } from './lib/servers.js';
import { issueToken } from './sections/throughput.js';
import { round } from './lib/stats.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '300' },
    warmup: { type: 'string', default: '60' },
    sample: { type: 'string', default: '5' },
    records: { type: 'string', default: '10000' },
    rate: { type: 'string', default: '800' },
    out: { type: 'string', default: 'bench/results/soak.json' },
  },
});
const seconds = Number(values.seconds);
const warmup = Number(values.warmup);
const sampleEvery = Number(values.sample);
const records = Number(values.records);
const rate = Number(values.rate);

const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
const LOGINS = [
  { login: 'admin', password: 'admin-password' },
  { login: 'operator', password: 'operator-password' },
  { login: 'viewer', password: 'viewer-password' },
];
const sessionBound = Math.min(fakeDefaults.sessions.max, LOGINS.length * fakeDefaults.sessions.maxPerUser);
const json = { 'content-type': 'application/json' };
const sidOf = (headers: Record<string, unknown>) => /(?:^|[\s,])sid=([^;]+)/.exec(String(headers['set-cookie'] ?? ''))?.[1] ?? '';

// The fake as `monitoring-api-kit serve` runs it after npm ci: from its build.
buildDist();
const load = { start: loadAverage() };
const server = await startServer(fakeCommand(records), { timeoutMs: 120_000 });
try {
  const client = connect(server.origin);
  const token = await issueToken(server.origin);
  const traps = JSON.parse((await send(client, '/node/api/event-log?type=1&limit=20', { headers: { authorization: adminBasic } })).body) as { _id: string }[];
  const operator = basic('operator', 'operator-password');

  /** The streams of traffic, each an autocannon run at its share of the rate. */
  const streams: { name: string; share: number; requests: Request[] }[] = [
    {
      name: 'log-ins (sessions left open)',
      share: 0.25,
      requests: LOGINS.map((u) => ({ method: 'POST', path: '/node/api/users/session', headers: json, body: JSON.stringify(u) })),
    },
    {
      name: 'log-in, use, log-out',
      share: 0.1,
      requests: [
        { method: 'POST', path: '/node/api/users/session', headers: json, body: JSON.stringify(LOGINS[2]), onResponse: (_s: number, _b: string, context: Record<string, string>, headers: Record<string, unknown>) => { context.sid = sidOf(headers); } },
        { method: 'GET', path: '/node/api/users/current', setupRequest: (req: Request, context: Record<string, string>) => ({ ...req, headers: { cookie: `sid=${context.sid}` } }) },
        { method: 'DELETE', path: '/node/api/users/session', setupRequest: (req: Request, context: Record<string, string>) => ({ ...req, headers: { cookie: `sid=${context.sid}` } }) },
      ] as Request[],
    },
    {
      name: 'reads (user, event log pages and filters, block log)',
      share: 0.55,
      requests: [
        { method: 'GET', path: '/node/api/users/current', headers: { authorization: adminBasic } },
        { method: 'GET', path: `/node/api/event-log?limit=50&api-token=${token}` },
        { method: 'GET', path: `/node/api/event-log?type=2&sortDirection=desc&limit=20&api-token=${token}` },
        { method: 'GET', path: `/node/api/event-log?filter=${encodeURIComponent('{"payload.trapOid":"1.3.6.1.6.3.1.1.5.3"}')}&limit=50&api-token=${token}` },
        { method: 'GET', path: `/node/api/event-log?skip=${Math.floor(records / 2)}&limit=50&api-token=${token}` },
        { method: 'GET', path: '/node/api/limit-block-log?limit=50', headers: { authorization: adminBasic } },
      ],
    },
    {
      name: 'writes (payload text)',
      share: 0.1,
      requests: traps.map((t, i) => ({
        method: 'PATCH',
        path: `/node/api/event-log/${t._id}/payload`,
        headers: { ...json, authorization: operator },
        body: JSON.stringify({ text: `soak ${i}` }),
      })),
    },
  ];

  const samples: { t: number; rssBytes: number; sessions: number }[] = [];
  const t0 = performance.now();
  const sampler = connect(server.origin);
  const sample = async () => {
    const answer = await send(sampler, '/__control/sessions');
    const sessions = answer.status === 200 ? (JSON.parse(answer.body) as unknown[]).length : -1;
    samples.push({ t: round((performance.now() - t0) / 1000, 1), rssBytes: (await server.rss()) ?? 0, sessions });
  };
  await sample();
  const runs = streams.map((s) =>
    autocannon({ url: server.origin, requests: s.requests, connections: 2, duration: seconds, overallRate: Math.max(1, Math.round(rate * s.share)) }),
  );
  const timer = setInterval(() => void sample(), sampleEvery * 1000);
  const results = await Promise.all(runs);
  clearInterval(timer);
  await sample();
  await sampler.close();
  await client.close();

  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const afterWarmup = samples.filter((s) => s.t >= warmup && s.t < warmup + 30);
  const last = samples.filter((s) => s.t >= seconds - 30);
  const baseline = mean(afterWarmup.map((s) => s.rssBytes));
  const end = mean(last.map((s) => s.rssBytes));
  const growth = round(((end - baseline) / baseline) * 100, 1);
  const maxSessions = Math.max(...samples.map((s) => s.sessions));
  const traffic = streams.map((s, i) => {
    const r = results[i]!;
    return { name: s.name, requests: r.requests.total, non2xx: r.non2xx, errors: r.errors + r.timeouts, requestsPerSecond: Math.round(r.requests.total / r.duration) };
  });
  const report = {
    command: `npm run soak${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`,
    machine: describeMachine(),
    loadAverage: { ...load, end: loadAverage() },
    settings: { seconds, warmup, sampleEvery, records, rate },
    rss: { afterWarmupBytes: Math.round(baseline), endBytes: Math.round(end), maxBytes: Math.max(...samples.map((s) => s.rssBytes)), growthPercent: growth },
    sessions: { max: maxSessions, bound: sessionBound, end: samples[samples.length - 1]?.sessions ?? -1 },
    traffic,
    samples,
  };
  const out = resolve(root, String(values.out));
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out, `${JSON.stringify(report, null, 2)}\n`);
  const within = maxSessions >= 0 && maxSessions <= sessionBound;
  const clean = traffic.every((t) => t.non2xx === 0 && t.errors === 0);
  console.log(
    [
      `## Soak (${seconds} s of mixed traffic at about ${rate} requests/s; the fake with ${fmt.count(records)} records)`,
      '',
      `Command: \`${report.command}\``,
      `Machine: ${report.machine.nproc} × ${report.machine.cpuModel}, Node ${report.machine.node}; load average ${report.loadAverage.start.join(', ')} at start, ${report.loadAverage.end.join(', ')} at end`,
      '',
      table(
        ['Measure', 'Value', 'Target', ''],
        [
          [`RSS ${warmup}–${warmup + 30} s (after warm-up)`, fmt.mib(report.rss.afterWarmupBytes), '', ''],
          [`RSS last 30 s`, fmt.mib(report.rss.endBytes), '', ''],
          ['RSS growth after warm-up', `${growth} %`, '< 10 %', fmt.met(growth < 10)],
          ['RSS highest sample', fmt.mib(report.rss.maxBytes), '', ''],
          ['sessions held, highest sample', fmt.count(maxSessions), `≤ ${fmt.count(sessionBound)} (the store's bound for ${LOGINS.length} users)`, fmt.met(within)],
        ],
      ),
      '',
      table(
        ['Traffic', 'requests', 'req/s', 'non-2xx', 'errors'],
        traffic.map((t) => [t.name, fmt.count(t.requests), fmt.count(t.requestsPerSecond), t.non2xx, t.errors]),
      ),
    ].join('\n'),
  );
  if (!(growth < 10 && within && clean)) process.exitCode = 1;
} finally {
  await server.stop();
}
