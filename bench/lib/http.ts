import { Client } from 'undici';
import { quantile, round } from './stats.js';

export interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
  readonly ms: number;
}

/** One keep-alive connection to a server; requests go one at a time, so a latency is a service time. */
export function connect(origin: string): Client {
  return new Client(origin, { pipelining: 1, headersTimeout: 120_000, bodyTimeout: 120_000 });
}

export async function send(
  client: Client,
  path: string,
  init: { method?: 'GET' | 'POST' | 'PATCH' | 'DELETE'; headers?: Record<string, string>; body?: string } = {},
): Promise<Answer> {
  const t0 = performance.now();
  const response = await client.request({ path, method: init.method ?? 'GET', headers: init.headers, body: init.body });
  const body = await response.body.text();
  return { status: response.statusCode, headers: response.headers, body, ms: performance.now() - t0 };
}

export interface LatencyFigures {
  readonly runs: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  /** Records (array items) in the last answer. */
  readonly returned: number;
}

/**
 * Sequential latency of one request: `warmup` untimed runs, then up to `runs` timed ones, or
 * fewer (never under `minRuns`) when they would take longer than `budgetMs`. Every answer
 * must have `expectStatus`, or the figures would describe an error page.
 */
export async function measureLatency(
  client: Client,
  path: string,
  options: { runs: number; warmup: number; minRuns?: number; budgetMs?: number; headers?: Record<string, string>; expectStatus?: number },
): Promise<LatencyFigures> {
  const { expectStatus = 200, minRuns = 10, budgetMs = Infinity } = options;
  const times: number[] = [];
  let last: Answer | undefined;
  const call = async () => {
    last = await send(client, path, { headers: options.headers });
    if (last.status !== expectStatus) throw new Error(`GET ${path} answered ${last.status}: ${last.body.slice(0, 300)}`);
    return last.ms;
  };
  for (let i = 0; i < options.warmup; i++) await call();
  const t0 = performance.now();
  while (times.length < options.runs && (times.length < minRuns || performance.now() - t0 < budgetMs)) times.push(await call());
  const parsed = last ? (JSON.parse(last.body) as unknown) : [];
  return {
    runs: times.length,
    p50Ms: round(quantile(times, 0.5), 2),
    p99Ms: round(quantile(times, 0.99), 2),
    maxMs: round(Math.max(...times), 2),
    returned: Array.isArray(parsed) ? parsed.length : 0,
  };
}
