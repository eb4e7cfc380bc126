import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CapturedBodies } from '../bare-fastify.js';
import { connect, send } from '../lib/http.js';
import { ADMIN, adminBasic, bareCommand, prismCommand, startServer, type RunningServer, type ServerCommand } from '../lib/servers.js';
import { median, round } from '../lib/stats.js';
import { measureThroughput, type LoadSettings, type ThroughputFigures } from '../lib/throughput.js';

export type ServerName = 'bare' | 'fake' | 'prism';
export const SERVER_ORDER: readonly ServerName[] = ['bare', 'fake', 'prism'];

/** One endpoint of the comparison: the path, and how it authenticates. */
export interface Endpoint {
  readonly key: string;
  readonly label: string;
  /** Path and query; `{token}` is the API token. */
  readonly path: string;
  readonly basic: boolean;
}

export const ENDPOINTS: readonly Endpoint[] = [
  { key: 'users-current', label: 'GET /node/api/users/current (Basic)', path: '/node/api/users/current', basic: true },
  { key: 'event-log', label: 'GET /node/api/event-log?limit=50 (api-token)', path: '/node/api/event-log?limit=50&api-token={token}', basic: false },
];

export interface EndpointResult {
  readonly key: string;
  readonly label: string;
  /** Per server: the figures of each round, and the round with the median req/s. */
  readonly servers: Record<ServerName, { readonly rounds: ThroughputFigures[]; readonly median: ThroughputFigures }>;
  readonly ratios: { readonly fakeOverBare: number; readonly fakeOverPrism: number };
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

export const withToken = (path: string, token: string) => path.replaceAll('{token}', encodeURIComponent(token));

/** Load on one endpoint of a running server; a non-2xx answer or an error under load fails the run. */
export async function measureEndpoint(server: RunningServer, endpoint: Endpoint, token: string, settings: LoadSettings, label: string): Promise<ThroughputFigures> {
  const result = await measureThroughput(
    { url: server.origin + withToken(endpoint.path, token), headers: endpoint.basic ? { authorization: adminBasic } : {} },
    settings,
    server.pid,
  );
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(`${label} ${endpoint.key}: ${result.non2xx} non-2xx answers and ${result.errors} errors under load`);
  }
  return result;
}

/** The figures of the round with the median req/s. */
export function medianRound(rounds: readonly ThroughputFigures[]): ThroughputFigures {
  const mid = median(rounds.map((f) => f.requestsPerSecond));
  return rounds.find((f) => f.requestsPerSecond === mid) as ThroughputFigures;
}

/**
 * Throughput of bare Fastify, the fake and Prism on the same endpoints, one server at a time,
 * in rounds (bare, fake, Prism; again), so that drift in the machine's load hits all three.
 */
export async function runThroughput(options: {
  readonly settings: LoadSettings;
  readonly rounds: number;
  readonly records: number;
  readonly fake: ServerCommand;
  readonly log: (line: string) => void;
}): Promise<ThroughputResult> {
  const { settings, rounds, log } = options;

  // The fake's own answers, byte for byte, for the bare server to send back.
  const capture = await startServer(options.fake);
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

  const commands: Record<ServerName, ServerCommand> = { bare: bareCommand(bodiesFile), fake: options.fake, prism: prismCommand() };
  const figures = new Map<string, ThroughputFigures[]>();
  for (let round = 1; round <= rounds; round++) {
    for (const name of SERVER_ORDER) {
      const server: RunningServer = await startServer(commands[name]);
      try {
        // Prism and the bare server accept any token; the fake needs its own.
        const token = name === 'fake' ? await issueToken(server.origin) : '00000000-0000-4000-8000-000000000000';
        for (const endpoint of endpoints) {
          const result = await measureEndpoint(server, endpoint, token, settings, name);
          log(`round ${round} ${name.padEnd(5)} ${endpoint.key.padEnd(14)} ${result.requestsPerSecond} req/s, p50 ${result.latencyP50Ms} ms, p99 ${result.latencyP99Ms} ms, ${result.bytesPerResponse} B/response, ${result.cpuMicrosPerRequest ?? '?'} µs CPU/request`);
          const key = `${name} ${endpoint.key}`;
          figures.set(key, [...(figures.get(key) ?? []), result]);
        }
      } finally {
        await server.stop();
      }
    }
  }

  const results = endpoints.map((endpoint): EndpointResult => {
    const servers = Object.fromEntries(
      SERVER_ORDER.map((name) => {
        const list = figures.get(`${name} ${endpoint.key}`) ?? [];
        return [name, { rounds: list, median: medianRound(list) }];
      }),
    ) as EndpointResult['servers'];
    const rps = (name: ServerName) => servers[name].median.requestsPerSecond;
    return {
      key: endpoint.key,
      label: endpoint.label,
      servers,
      ratios: { fakeOverBare: round(rps('fake') / rps('bare'), 2), fakeOverPrism: round(rps('fake') / rps('prism'), 1) },
    };
  });
  return { settings: { ...settings, rounds, records: options.records }, endpoints: results, skipped };
}
