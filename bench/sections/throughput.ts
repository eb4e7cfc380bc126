import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CapturedBodies } from '../bare-fastify.js';
import { connect, send } from '../lib/http.js';
import { ADMIN, adminBasic, bareCommand, prismCommand, startServer, type RunningServer, type ServerCommand } from '../lib/servers.js';
import { median, round } from '../lib/stats.js';
import { measureThroughput, type LoadSettings, type ThroughputFigures } from '../lib/throughput.js';

/**
 * The fake as one way of running it (a log level, a setting switched on or off), measured side
 * by side with bare Fastify and Prism. The first variant is the one compared with Prism.
 */
export interface FakeVariant {
  readonly key: string;
  readonly label: string;
  readonly command: ServerCommand;
  /** The least share of bare Fastify's req/s this variant should reach. */
  readonly goalOverBare: number;
}

/** The variants whose req/s tell the request journal's cost: the fake as is (journal on), and with `--journal-size 0`. */
export const JOURNAL_VARIANTS = { on: 'fake', off: 'fake-journal-off' } as const;

/** One endpoint of the comparison: the path, and how it authenticates. */
interface Endpoint {
  readonly key: string;
  readonly label: string;
  /** Path and query; `{token}` is the API token. */
  readonly path: string;
  readonly basic: boolean;
}

const ENDPOINTS: readonly Endpoint[] = [
  { key: 'users-current', label: 'GET /node/api/users/current (Basic)', path: '/node/api/users/current', basic: true },
  { key: 'event-log', label: 'GET /node/api/event-log?limit=50 (api-token)', path: '/node/api/event-log?limit=50&api-token={token}', basic: false },
];

export interface EndpointResult {
  readonly key: string;
  readonly label: string;
  /** Per server (`bare`, each variant's key, `prism`): the figures of each round, and the round with the median req/s. */
  readonly servers: Record<string, { readonly label: string; readonly rounds: ThroughputFigures[]; readonly median: ThroughputFigures }>;
  /** Per variant: its req/s over bare Fastify's, and its goal. */
  readonly overBare: { readonly key: string; readonly label: string; readonly ratio: number; readonly goal: number }[];
  /** The first variant's req/s over Prism's. */
  readonly fakeOverPrism: number;
}

export interface ThroughputResult {
  readonly settings: LoadSettings & { readonly rounds: number; readonly records: number };
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

const withToken = (path: string, token: string) => path.replaceAll('{token}', encodeURIComponent(token));

/**
 * Throughput of bare Fastify, each variant of the fake and Prism on the same endpoints, one
 * server at a time, in rounds (bare, the fakes, Prism; again), so that drift in the machine's
 * load hits them all.
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
    ...fakes.map((f) => ({ ...f, fake: true })),
    { key: 'prism', label: 'Prism 5.14', command: prismCommand(), fake: false },
  ];
  const figures = new Map<string, ThroughputFigures[]>();
  for (let round = 1; round <= rounds; round++) {
    for (const { key: name, command, fake } of servers) {
      const server: RunningServer = await startServer(command);
      try {
        // Prism and the bare server accept any token; the fake needs its own.
        const token = fake ? await issueToken(server.origin) : '00000000-0000-4000-8000-000000000000';
        for (const endpoint of endpoints) {
          const result = await measureThroughput(
            { url: server.origin + withToken(endpoint.path, token), headers: endpoint.basic ? { authorization: adminBasic } : {} },
            settings,
            server.pid,
          );
          if (result.non2xx > 0 || result.errors > 0) {
            throw new Error(`${name} ${endpoint.key}: ${result.non2xx} non-2xx answers and ${result.errors} errors under load`);
          }
          log(`round ${round} ${name.padEnd(10)} ${endpoint.key.padEnd(14)} ${result.requestsPerSecond} req/s, p50 ${result.latencyP50Ms} ms, p99 ${result.latencyP99Ms} ms, ${result.bytesPerResponse} B/response, ${result.cpuMicrosPerRequest ?? '?'} µs CPU/request`);
          const key = `${name} ${endpoint.key}`;
          figures.set(key, [...(figures.get(key) ?? []), result]);
        }
      } finally {
        await server.stop();
      }
    }
  }

  const results = endpoints.map((endpoint): EndpointResult => {
    const measured = Object.fromEntries(
      servers.map(({ key, label }) => {
        const list = figures.get(`${key} ${endpoint.key}`) ?? [];
        const mid = median(list.map((f) => f.requestsPerSecond));
        return [key, { label, rounds: list, median: list.find((f) => f.requestsPerSecond === mid) as ThroughputFigures }];
      }),
    ) as EndpointResult['servers'];
    const rps = (key: string) => measured[key]!.median.requestsPerSecond;
    return {
      key: endpoint.key,
      label: endpoint.label,
      servers: measured,
      overBare: fakes.map((f) => ({ key: f.key, label: f.label, ratio: round(rps(f.key) / rps('bare'), 2), goal: f.goalOverBare })),
      fakeOverPrism: round(rps(fakes[0]!.key) / rps('prism'), 1),
    };
  });
  return { settings: { ...settings, rounds, records: options.records }, endpoints: results, skipped };
}
