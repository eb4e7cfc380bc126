import { connect, measureLatency, send } from '../lib/http.js';
import { cpuMs } from '../lib/machine.js';
import { adminBasic, fakeReport, startServer, timedFakeCommand } from '../lib/servers.js';

export interface ScaleQueryResult {
  readonly key: string;
  readonly runs: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly returned: number;
  /** The server's computing time per request (user + system, warm-up runs included): what a busy machine inflates least. */
  readonly cpuMsPerRequest?: number;
}

export interface ScaleSize {
  /** Generated records asked for; the store also holds the hand-written fixtures. */
  readonly records: number;
  readonly stored: number;
  /** buildFake from start to ready: spec, users, generating and indexing the records, routes. */
  readonly seedMs: number;
  /** From spawn to the first 200. */
  readonly startupMs: number;
  /** Highest resident memory of the server process seen (after start, after the queries). */
  readonly rssBytes: number;
  readonly queries: ScaleQueryResult[];
}

export interface ScaleResult {
  readonly runs: number;
  readonly warmup: number;
  readonly queryLabels: string[];
  readonly queries: { readonly key: string; readonly label: string; readonly example: string }[];
  readonly sizes: ScaleSize[];
  readonly notes: string[];
}

interface Bounds {
  readonly first: number;
  readonly last: number;
  readonly records: number;
}

/** The queries, by what they exercise. */
const QUERIES: readonly { key: string; label: string; path: (b: Bounds) => string }[] = [
  {
    key: 'range',
    label: '(a) time range + sort by timestamp + limit 50',
    path: (b) => `from=${Math.floor((b.first + b.last) / 2)}&to=${b.last}&sortField=timestamp&sortDirection=desc&limit=50`,
  },
  { key: 'type', label: '(b) type filter', path: () => 'type=2&sortDirection=desc&limit=50' },
  {
    key: 'payload-common',
    label: '(c) payload filter, common value',
    path: () => `filter=${encodeURIComponent('{"payload.trapOid":"1.3.6.1.6.3.1.1.5.3"}')}&sortDirection=desc&limit=50`,
  },
  {
    key: 'payload',
    label: '(c) payload filter, no match (full scan)',
    path: () => `filter=${encodeURIComponent('{"payload.senderAddress":"10.9.9.9"}')}&limit=50`,
  },
  {
    key: 'payload-regex',
    label: '(c) payload $regex, no match (full scan)',
    path: () => `filter=${encodeURIComponent('{"payload.text":{"$regex":"^no such text"}}')}&limit=50`,
  },
  {
    key: 'payload-regex-anywhere',
    label: '(c) payload $regex anywhere in the text, no match (full scan)',
    path: () => `filter=${encodeURIComponent('{"payload.text":{"$regex":"no such text"}}')}&limit=50`,
  },
  {
    key: 'payload-regex-common',
    label: '(c) payload $regex "down", limit 50',
    path: () => `filter=${encodeURIComponent('{"payload.text":{"$regex":"down"}}')}&limit=50`,
  },
  { key: 'skip', label: '(d) deep skip (90 %)', path: (b) => `skip=${Math.floor(b.records * 0.9)}&limit=50` },
];

async function timestampOf(client: ReturnType<typeof connect>, direction: 'asc' | 'desc'): Promise<number> {
  const answer = await send(client, `/node/api/event-log?limit=1&sortDirection=${direction}`, { headers: { authorization: adminBasic } });
  if (answer.status !== 200) throw new Error(`event-log answered ${answer.status}: ${answer.body.slice(0, 200)}`);
  const [record] = JSON.parse(answer.body) as { timestamp: number }[];
  if (!record) throw new Error('the event log is empty');
  return record.timestamp;
}

/** The fake with each number of records: seed time, memory, and the latency of typical queries. */
export async function runScale(options: {
  readonly sizes: readonly number[];
  readonly runs: number;
  readonly log: (line: string) => void;
}): Promise<ScaleResult> {
  const warmup = 5;
  const sizes: ScaleSize[] = [];
  for (const records of options.sizes) {
    const server = await startServer(timedFakeCommand(records), { timeoutMs: 300_000, probeMs: 20 });
    try {
      const report = await fakeReport(server);
      let rss = (await server.rss()) ?? 0;
      options.log(`${records} records: built in ${report.buildMs} ms, first 200 after ${Math.round(server.startupMs)} ms, RSS ${Math.round(rss / 2 ** 20)} MiB`);
      const client = connect(server.origin);
      const bounds: Bounds = { first: await timestampOf(client, 'asc'), last: await timestampOf(client, 'desc'), records: report.records };
      const queries: ScaleQueryResult[] = [];
      for (const query of QUERIES) {
        const cpuBefore = await cpuMs(server.pid);
        const figures = await measureLatency(client, `/node/api/event-log?${query.path(bounds)}`, {
          runs: options.runs,
          warmup,
          minRuns: 20,
          budgetMs: 20_000,
          headers: { authorization: adminBasic },
        });
        const cpuAfter = await cpuMs(server.pid);
        const cpuMsPerRequest = cpuBefore === undefined || cpuAfter === undefined ? undefined : Math.round(((cpuAfter - cpuBefore) / (figures.runs + warmup)) * 10) / 10;
        queries.push({ key: query.key, ...figures, cpuMsPerRequest });
        options.log(`  ${query.label}: p50 ${figures.p50Ms} ms, p99 ${figures.p99Ms} ms, server CPU ${cpuMsPerRequest ?? '?'} ms a request (${figures.runs} runs, ${figures.returned} records returned)`);
      }
      await client.close();
      rss = Math.max(rss, (await server.rss()) ?? 0);
      sizes.push({ records, stored: report.records, seedMs: report.buildMs, startupMs: Math.round(server.startupMs), rssBytes: rss, queries });
    } finally {
      await server.stop();
    }
  }
  const example: Bounds = { first: 1_756_000_000_000, last: 1_756_604_800_000, records: 1_000_000 };
  return {
    runs: options.runs,
    warmup,
    queryLabels: QUERIES.map((q) => q.label),
    queries: QUERIES.map((q) => ({ key: q.key, label: q.label, example: `GET /node/api/event-log?${decodeURIComponent(q.path(example))}` })),
    sizes,
    notes: [
      'seed = buildFake from start to ready (loading the document and users, generating and indexing the records, routes); start-up adds the process start.',
      'each query is timed on one keep-alive connection, one request at a time, with Basic authentication, answer read in full.',
    ],
  };
}
