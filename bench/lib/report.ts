import type { ScaleQueryResult, ScaleResult } from '../sections/scale.js';
import type { LoadResult } from '../sections/load.js';
import type { StartupResult } from '../sections/startup.js';
import { LOGGED_VARIANT, type PairedRatio, type ThroughputResult } from '../sections/throughput.js';
import type { ContractResult } from '../sections/contract.js';
import type { MswResult } from '../sections/msw.js';
import type { Machine } from './machine.js';
import { fmt, table } from './markdown.js';
import { median } from './stats.js';

export interface BenchResults {
  readonly command: string;
  readonly startedAt: string;
  readonly finishedAt: string;
  readonly machine: Machine;
  /** The packed kit installed into an empty project: bytes of node_modules and packages (the kit included). */
  readonly installed?: { readonly bytes: number; readonly packages: number };
  readonly loadAverage: { readonly start: number[]; readonly end: number[] };
  readonly throughput?: ThroughputResult;
  readonly startup?: StartupResult;
  readonly load?: LoadResult;
  readonly scale?: ScaleResult;
  readonly contract?: ContractResult;
  readonly msw?: MswResult;
  readonly targets: Target[];
}

export interface Target {
  readonly name: string;
  readonly target: string;
  readonly measured: string;
  readonly met: boolean;
}

/** Every target of the benchmark that this run measured, and whether it was met. */
export function evaluateTargets(r: Omit<BenchResults, 'targets'>): Target[] {
  const targets: Target[] = [];
  for (const e of r.throughput?.endpoints ?? []) {
    const logged = e.loggedOverBareLogged;
    if (logged?.goal !== undefined) {
      targets.push({ name: `${e.key}: the fake at info / bare Fastify at info, both to a pipe`, target: `≥ ${logged.goal.toFixed(2)}×`, measured: pairedRatio(logged), met: logged.ratio >= logged.goal });
    }
  }
  if (r.startup) {
    targets.push({ name: 'start-up: fake / Prism', target: '≤ 0.33×', measured: fmt.ratio(r.startup.ratio), met: r.startup.ratio <= 1 / 3 });
  }
  if (r.load) {
    targets.push({ name: 'load: import of the package, median', target: '≤ 400 ms', measured: `${fmt.ms(r.load.importMedianMs)} ms`, met: r.load.importMedianMs <= 400 });
    targets.push({ name: 'load: createFake() after the first, median', target: '≤ 20 ms', measured: `${fmt.ms(r.load.laterCreateMedianMs)} ms`, met: r.load.laterCreateMedianMs <= 20 });
  }
  const million = r.scale?.sizes.find((s) => s.records === 1_000_000);
  if (million) {
    const q = (key: string) => million.queries.find((x) => x.key === key);
    const range = q('range');
    const cpu = (x: ScaleQueryResult) => (x.cpuMsPerRequest === undefined ? '' : ` (server CPU ${fmt.ms(x.cpuMsPerRequest)} ms a request)`);
    if (range) targets.push({ name: '1M: (a) time range + sort + limit 50, p50', target: '≤ 5 ms', measured: `${fmt.ms(range.p50Ms)} ms${cpu(range)}`, met: range.p50Ms <= 5 });
    const filtered = { payload: 'payload filter, no match (full scan)', 'payload-regex-anywhere': 'payload $regex anywhere, no match (full scan)', 'payload-regex-common': 'payload $regex "down", limit 50' };
    for (const [key, name] of Object.entries(filtered)) {
      const scan = q(key);
      if (scan) targets.push({ name: `1M: (c) ${name}, p50`, target: '≤ 300 ms', measured: `${fmt.ms(scan.p50Ms)} ms${cpu(scan)}`, met: scan.p50Ms <= 300 });
    }
    targets.push({ name: '1M: seed', target: '≤ 15 s', measured: `${(million.seedMs / 1000).toFixed(1)} s`, met: million.seedMs <= 15_000 });
    targets.push({ name: '1M: RSS', target: '≤ 1.5 GiB', measured: fmt.mib(million.rssBytes), met: million.rssBytes <= 1.5 * 2 ** 30 });
  }
  const msw = r.msw?.ways.find((w) => w.key === 'reset + MSW fetch');
  if (msw) targets.push({ name: 'msw: reset() + one request through MSW, p50 after the first', target: '≤ 5 ms', measured: `${fmt.ms(msw.p50Ms)} ms (p95 ${fmt.ms(msw.p95Ms)}; CPU p50 ${fmt.ms(msw.cpuP50Ms)})`, met: msw.p50Ms <= 5 });
  return targets;
}

/** A median ratio with its quartiles, e.g. `0.95× (0.90–1.01)`. */
const pairedRatio = (r: PairedRatio, digits = 2) => `${fmt.ratio(r.ratio, digits)} (${r.low.toFixed(digits)}–${r.high.toFixed(digits)})`;

function throughputSection(t: ThroughputResult): string[] {
  const rows = t.endpoints.flatMap((e) =>
    Object.entries(e.servers).map(([key, { label, median: m }]) => {
      const variant = e.overBare.findIndex((v) => v.key === key);
      const overBare = variant >= 0 ? `${pairedRatio(e.overBare[variant]!)} of bare` : '';
      const logged = key === LOGGED_VARIANT && e.loggedOverBareLogged ? `, ${pairedRatio(e.loggedOverBareLogged)} of bare at info` : '';
      const ratio = variant === 0 ? `${overBare}, ${pairedRatio(e.fakeOverPrism, 1)} Prism` : `${overBare}${logged}`;
      const cpu = m.cpuMicrosPerRequest === undefined ? '' : fmt.ms(m.cpuMicrosPerRequest);
      return [e.label, label, fmt.rps(m.requestsPerSecond), m.latencyP50Ms, m.latencyP99Ms, cpu, fmt.count(m.bytesPerResponse), ratio];
    }),
  );
  const s = t.settings;
  return [
    `### Throughput (autocannon, ${s.connections} connections; the fake with ${fmt.count(s.records)} records)`,
    '',
    `All servers run side by side and are measured in turn, ${s.rounds} cycles of ${s.sliceWarmup} s warm-up + ${s.duration} s each, the order reversed every other cycle; every server is started afresh every ${s.cyclesPerStart ?? s.rounds} cycles (then ${s.warmup} s of warm-up each). ` +
      'Figures: the cycle with the median req/s. Ratio: the median of the ratios within each cycle, with their quartiles in brackets.',
    '',
    table(['Endpoint', 'Server', 'req/s', 'p50 ms', 'p99 ms', 'server CPU µs/request', 'bytes/response (with headers)', 'Ratio (req/s; quartiles)'], rows),
    ...t.skipped.map((x) => `\nLeft out: ${x.key} (${x.reason}).`),
  ];
}

const firstPage = (ms: readonly number[] | undefined) => (ms && ms.length > 0 ? fmt.count(median([...ms])) : '');

function startupSection(s: StartupResult): string[] {
  return [
    `### Start-up (spawn to first 200 of GET /node/api/users/current, median of ${s.runs}, alternating; the fake with ${fmt.count(s.records)} records)`,
    '',
    table(
      ['Server', 'median ms', 'CPU ms by then (median)', 'runs (ms)', 'first event log page (median ms from spawn)'],
      [
        ['the fake (the installed package: `monitoring-api-kit serve`)', fmt.count(s.fakeMedianMs), fmt.count(s.fakeMedianCpuMs), s.fakeMs.join(', '), firstPage(s.fakeFirstPageMs)],
        ['Prism 5.14', fmt.count(s.prismMedianMs), fmt.count(s.prismMedianCpuMs), s.prismMs.join(', '), firstPage(s.prismFirstPageMs)],
        ['fake / Prism', fmt.ratio(s.ratio), fmt.ratio(s.fakeMedianCpuMs / s.prismMedianCpuMs), '', ''],
        ...(s.comparison
          ? [
              [`for comparison: ${s.comparison.name}`, fmt.count(s.comparison.medianMs), fmt.count(s.comparison.medianCpuMs), s.comparison.ms.join(', '), ''],
              [`${s.comparison.name} / Prism`, fmt.ratio(s.comparison.ratio), fmt.ratio(s.comparison.medianCpuMs / s.prismMedianCpuMs), '', ''],
            ]
          : []),
      ],
    ),
  ];
}

function loadSection(l: LoadResult): string[] {
  const later = [...l.laterCreateMs].sort((a, b) => a - b);
  return [
    `### A test file's start (the installed package in ${l.processes} fresh processes, one after the other; \`createFake()\` ${l.creates} times in each, its defaults)`,
    '',
    table(
      ['Step', 'median ms', 'ms (each process; later calls sorted)'],
      [
        ['`await import(\'monitoring-api-kit\')`', fmt.ms(l.importMedianMs), l.importMs.join(', ')],
        ['first `createFake()`', fmt.ms(l.firstCreateMedianMs), l.firstCreateMs.join(', ')],
        ['`createFake()` after the first', fmt.ms(l.laterCreateMedianMs), `${later[0]} to ${later[later.length - 1]}`],
      ],
    ),
  ];
}

function scaleSection(s: ScaleResult): string[] {
  const header = ['Records', 'seed', 'start-up to first 200', 'RSS', ...s.queryLabels.map((l) => `${l} p50 / p99 ms`)];
  const rows = s.sizes.map((size) => [
    fmt.count(size.records),
    `${(size.seedMs / 1000).toFixed(2)} s`,
    `${(size.startupMs / 1000).toFixed(2)} s`,
    fmt.mib(size.rssBytes),
    ...s.queryLabels.map((_, i) => {
      const q = size.queries[i];
      return q ? `${fmt.ms(q.p50Ms)} / ${fmt.ms(q.p99Ms)}` : '';
    }),
  ]);
  return [
    `### Scale (sequential requests on one keep-alive connection; ${s.runs} timed runs after ${s.warmup} warm-up runs per query)`,
    '',
    table(header, rows),
    '',
    ...s.queries.map((q) => `- ${q.label}: \`${q.example}\``),
    ...(s.notes.length ? ['', ...s.notes.map((n) => `Note: ${n}`)] : []),
  ];
}

function contractSection(c: ContractResult): string[] {
  return [
    '### Contract suite against the fake (wall time of the whole command, process start included)',
    '',
    table(['Command', 'wall time', 'requests', 'result'], [[`\`${c.command}\``, `${(c.wallMs / 1000).toFixed(2)} s`, c.requests ?? '', c.summary.replace(/ Seed .*$/, '')]]),
  ];
}

function mswSection(m: MswResult): string[] {
  return [
    `### A test's own cost with monitoring-api-kit/msw (in-process, the fake with ${fmt.count(m.records)} records; ${m.runs} runs each way, interleaved)`,
    '',
    `The request: \`${m.request}\` with Basic credentials; "MSW fetch" is the global fetch, intercepted by \`setupServer(...handlersFor(fake, { baseUrl }))\`.`,
    '',
    table(['Each test', 'first ms', 'p50 ms', 'p95 ms', 'max ms', 'CPU ms, p50'], m.ways.map((w) => [w.key, fmt.ms(w.firstMs), fmt.ms(w.p50Ms), fmt.ms(w.p95Ms), fmt.ms(w.maxMs), fmt.ms(w.cpuP50Ms)])),
  ];
}

export function renderMarkdown(r: BenchResults): string {
  const m = r.machine;
  return [
    '## Benchmark results',
    '',
    `Command: \`${r.command}\``,
    `Machine: ${m.nproc} × ${m.cpuModel}, ${m.memoryGiB} GiB, ${m.platform}, Node ${m.node}`,
    `Load average (1/5/15 min): ${r.loadAverage.start.join(', ')} at start, ${r.loadAverage.end.join(', ')} at end`,
    ...(r.installed ? [`The fake measured as installed: the packed kit in an empty project, ${(r.installed.bytes / 1e6).toFixed(1)} MB in ${r.installed.packages} packages (the kit included)`] : []),
    `Run: ${r.startedAt} to ${r.finishedAt}`,
    '',
    ...(r.throughput ? [...throughputSection(r.throughput), ''] : []),
    ...(r.startup ? [...startupSection(r.startup), ''] : []),
    ...(r.load ? [...loadSection(r.load), ''] : []),
    ...(r.scale ? [...scaleSection(r.scale), ''] : []),
    ...(r.contract ? [...contractSection(r.contract), ''] : []),
    ...(r.msw ? [...mswSection(r.msw), ''] : []),
    '### Targets',
    '',
    table(['Target', 'Goal', 'Measured', ''], r.targets.map((t) => [t.name, t.target, t.measured, fmt.met(t.met)])),
  ].join('\n');
}
