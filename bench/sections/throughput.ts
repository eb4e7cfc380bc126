import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CapturedBodies } from '../bare-fastify.js';
import { connect, send } from '../lib/http.js';
import { ADMIN, adminBasic, bareCommand, prismCommand, startServer, type RunningServer, type ServerCommand } from '../lib/servers.js';
import { median, quantile, round } from '../lib/stats.js';
import { measureThroughput, type LoadSettings, type LoadTarget, type ThroughputFigures } from '../lib/throughput.js';

/**
 * The fake as one way of running it (a log level, a setting switched on or off), measured side
 * by side with bare Fastify and Prism. The first variant is the one compared with Prism.
 */
export interface FakeVariant {
  readonly key: string;
  readonly label: string;
  readonly command: ServerCommand;
}

/** The fake's variant at the default level (a line per request), compared with bare Fastify whose own logger writes at that level too. */
export const LOGGED_VARIANT = 'fake-info';
/**
 * The floor: the fake at the default level reaches this share of bare Fastify's req/s with
 * Fastify's own logger at that level, both writing to a pipe. Like for like: a line per request
 * through pino costs any Fastify server, bare or not.
 */
export const FLOOR_AT_INFO = 0.65;
const BARE_LOGGED = 'bare-info';

/** The variants whose req/s tell the request journal's cost: the fake as is (journal on), and with `--journal-size 0`. */
export const JOURNAL_VARIANTS = { on: 'fake', off: 'fake-journal-off' } as const;

/** One endpoint of the comparison: the path, and how it authenticates. */
interface Endpoint {
  readonly key: string;
  readonly label: string;
  /** Path and query; `{token}` is the API token. */
  readonly path: string;
  readonly basic: boolean;
  /** Whether the floor (FLOOR_AT_INFO) applies here; elsewhere the ratios are shown, not goals. */
  readonly floor?: true;
}

const ENDPOINTS: readonly Endpoint[] = [
  { key: 'users-current', label: 'GET /node/api/users/current (Basic)', path: '/node/api/users/current', basic: true, floor: true },
  { key: 'event-log', label: 'GET /node/api/event-log?limit=50 (api-token)', path: '/node/api/event-log?limit=50&api-token={token}', basic: false },
];

/** A ratio of two servers' req/s: the median of the ratios measured in the same cycle, and their quartiles. */
export interface PairedRatio {
  readonly ratio: number;
  readonly low: number;
  readonly high: number;
}

export interface EndpointResult {
  readonly key: string;
  readonly label: string;
  /** Per server (`bare`, each variant's key, `prism`): the figures of each cycle, and the cycle with the median req/s. */
  readonly servers: Record<string, { readonly label: string; readonly rounds: ThroughputFigures[]; readonly median: ThroughputFigures }>;
  /** Per variant: its req/s over bare Fastify's in the same cycle, and its floor if it has one. */
  readonly overBare: (PairedRatio & { readonly key: string; readonly label: string })[];
  /** The first variant's req/s over Prism's in the same cycle. */
  readonly fakeOverPrism: PairedRatio;
  /** The journal on over off in the same cycle, when both variants ran. */
  readonly journalOnOverOff?: PairedRatio;
  /** The fake at `info` over bare Fastify with its own logger at `info` (two lines a request), in the same cycle, when that variant ran. */
  readonly loggedOverBareLogged?: PairedRatio & { readonly goal?: number };
}

export interface ThroughputResult {
  readonly settings: LoadSettings & { readonly rounds: number; readonly records: number; readonly sliceWarmup: number; readonly cyclesPerStart: number };
  readonly endpoints: EndpointResult[];
  /** Endpoints left out, and why. */
  readonly skipped: { readonly key: string; readonly reason: string }[];
}

/** Asks the fake for a new API token of the admin, with Basic credentials (spec 4.1). */
export async function issueToken(origin: string): Promise<string> {
  const client = connect(origin);
  try {
    const answer = await send(client, `/node/api/users/${ADMIN.id}/auth-token`, { method: 'POST', headers: { authorization: adminBasic } });
    if (answer.status !== 200) throw new Error(`POST auth-token answered ${answer.status}: ${answer.body}`);
    return JSON.parse(answer.body) as string;
  } finally {
    await client.close();
  }
}

/** Seconds of load before each measured slice, thrown away: connections opened, the server's caches warm again. */
const SLICE_WARMUP_S = 1;
/** Cycles measured on the same processes before every server is started afresh. */
const CYCLES_PER_START = 3;

const withToken = (path: string, token: string) => path.replaceAll('{token}', encodeURIComponent(token));

/**
 * Throughput of bare Fastify, each variant of the fake and Prism on the same endpoints: all
 * running at once, measured one at a time in cycles (bare, the fakes, Prism; then backwards),
 * each ratio taken within a cycle, every server started afresh every few cycles.
 */
export async function runThroughput(options: {
  readonly settings: LoadSettings;
  readonly rounds: number;
  readonly records: number;
  readonly fakes: readonly FakeVariant[];
  readonly log: (line: string) => void;
}): Promise<ThroughputResult> {
  const { settings, rounds, log, fakes } = options;

  // The fake's own answers, byte for byte, for the bare server to send back.
  const capture = await startServer(fakes[0]!.command);
  const bodies: CapturedBodies = {};
  const endpoints: Endpoint[] = [];
  const skipped: ThroughputResult['skipped'] = [];
  try {
    const token = await issueToken(capture.origin);
    const client = connect(capture.origin);
    for (const endpoint of ENDPOINTS) {
      const answer = await send(client, withToken(endpoint.path, token), { headers: endpoint.basic ? { authorization: adminBasic } : {} });
      if (answer.status !== 200) {
        skipped.push({ key: endpoint.key, reason: `the fake answers ${answer.status}: ${answer.body.slice(0, 200)}` });
        continue;
      }
      bodies[endpoint.path.split('?')[0] as string] = { contentType: String(answer.headers['content-type']), body: answer.body };
      endpoints.push(endpoint);
    }
    await client.close();
  } finally {
    await capture.stop();
  }
  const dir = await mkdtemp(join(tmpdir(), 'bench-'));
  const bodiesFile = join(dir, 'bodies.json');
  await writeFile(bodiesFile, JSON.stringify(bodies));

  const servers = [
    { key: 'bare', label: 'bare Fastify', command: bareCommand(bodiesFile), fake: false },
    // For the fake's logging: Fastify's own logger at its default level, to a pipe as the fake's lines.
    ...(fakes.some((f) => f.key === LOGGED_VARIANT) ? [{ key: BARE_LOGGED, label: 'bare Fastify, its own logger at info to a pipe', command: bareCommand(bodiesFile, 'info'), fake: false }] : []),
    ...fakes.map((f) => ({ ...f, fake: true })),
    { key: 'prism', label: 'Prism 5.14', command: prismCommand(), fake: false },
  ];
  // The servers run side by side and are measured in turn, a short slice each, the order
  // reversed every other cycle: the speed of this shared machine drifts by a factor of two or
  // more within minutes, so a ratio is only meaningful between slices seconds apart. They are
  // started again every few cycles: one process of a server can be luckier than the next (its
  // place in memory, its compiled code), and one process alone would carry that into every cycle.
  const running = new Map<string, { server: RunningServer; token: string }>();
  const figures = new Map<string, ThroughputFigures[]>();
  const startAll = async () => {
    for (const { key, command, fake } of servers) {
      const server = await startServer(command);
      // Prism and the bare server accept any token; the fake needs its own.
      const token = fake ? await issueToken(server.origin) : '00000000-0000-4000-8000-000000000000';
      running.set(key, { server, token });
    }
  };
  const stopAll = async () => {
    await Promise.all([...running.values()].map(({ server }) => server.stop()));
    running.clear();
  };
  const target = (key: string, endpoint: Endpoint): LoadTarget => {
    const { server, token } = running.get(key)!;
    return { url: server.origin + withToken(endpoint.path, token), headers: endpoint.basic ? { authorization: adminBasic } : {} };
  };
  try {
    for (let first = 1; first <= rounds; first += CYCLES_PER_START) {
      await startAll();
      for (const endpoint of endpoints) {
        for (const { key } of servers) await measureThroughput(target(key, endpoint), { ...settings, duration: settings.warmup, warmup: 0 });
        for (let round = first; round < first + CYCLES_PER_START && round <= rounds; round++) {
          const order = round % 2 === 1 ? servers : [...servers].reverse();
          for (const { key: name } of order) {
            const result = await measureThroughput(target(name, endpoint), { ...settings, warmup: SLICE_WARMUP_S }, running.get(name)!.server.pid);
            if (result.non2xx > 0 || result.errors > 0) {
              throw new Error(`${name} ${endpoint.key}: ${result.non2xx} non-2xx answers and ${result.errors} errors under load`);
            }
            log(`cycle ${round} ${name.padEnd(16)} ${endpoint.key.padEnd(14)} ${result.requestsPerSecond} req/s, p50 ${result.latencyP50Ms} ms, p99 ${result.latencyP99Ms} ms, ${result.bytesPerResponse} B/response, ${result.cpuMicrosPerRequest ?? '?'} µs CPU/request`);
            const key = `${name} ${endpoint.key}`;
            figures.set(key, [...(figures.get(key) ?? []), result]);
          }
        }
      }
      await stopAll();
    }
  } finally {
    await stopAll();
  }

  const results = endpoints.map((endpoint): EndpointResult => {
    const list = (key: string) => figures.get(`${key} ${endpoint.key}`) ?? [];
    const measured = Object.fromEntries(
      servers.map(({ key, label }) => {
        const mid = median(list(key).map((f) => f.requestsPerSecond));
        return [key, { label, rounds: list(key), median: list(key).find((f) => f.requestsPerSecond === mid) as ThroughputFigures }];
      }),
    ) as EndpointResult['servers'];
    const paired = (over: string, under: string, digits = 2): PairedRatio => {
      const ratios = list(over).map((f, i) => f.requestsPerSecond / list(under)[i]!.requestsPerSecond);
      return { ratio: round(median(ratios), digits), low: round(quantile(ratios, 0.25), digits), high: round(quantile(ratios, 0.75), digits) };
    };
    const hasJournalPair = fakes.some((f) => f.key === JOURNAL_VARIANTS.on) && fakes.some((f) => f.key === JOURNAL_VARIANTS.off);
    return {
      key: endpoint.key,
      label: endpoint.label,
      servers: measured,
      overBare: fakes.map((f) => ({ key: f.key, label: f.label, ...paired(f.key, 'bare') })),
      fakeOverPrism: paired(fakes[0]!.key, 'prism', 1),
      ...(hasJournalPair ? { journalOnOverOff: paired(JOURNAL_VARIANTS.on, JOURNAL_VARIANTS.off) } : {}),
      ...(list(BARE_LOGGED).length > 0 ? { loggedOverBareLogged: { ...paired(LOGGED_VARIANT, BARE_LOGGED), ...(endpoint.floor ? { goal: FLOOR_AT_INFO } : {}) } } : {}),
    };
  });
  return { settings: { ...settings, rounds, records: options.records, sliceWarmup: SLICE_WARMUP_S, cyclesPerStart: CYCLES_PER_START }, endpoints: results, skipped };
}
