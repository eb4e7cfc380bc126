import autocannon, { type Result } from 'autocannon';
import { cpuMs } from './machine.js';
import { quantile, round } from './stats.js';

export interface LoadSettings {
  readonly connections: number;
  /** Seconds of measurement. */
  readonly duration: number;
  /** Seconds of load before measuring, whose numbers are thrown away. */
  readonly warmup: number;
}

export interface LoadTarget {
  /** Full URL, with query. */
  readonly url: string;
  readonly headers?: Record<string, string>;
}

export interface ThroughputFigures {
  readonly requestsPerSecond: number;
  readonly latencyP50Ms: number;
  readonly latencyP99Ms: number;
  readonly requests: number;
  readonly non2xx: number;
  readonly errors: number;
  readonly bytesPerResponse: number;
  /** CPU time the server process used per request during the measurement, in µs (when its pid is known). */
  readonly cpuMicrosPerRequest?: number;
}

/** autocannon's own histogram keeps whole milliseconds; the response times it emits are exact. */
function figures(result: Result, times: readonly number[]): ThroughputFigures {
  const requests = result.requests.total;
  return {
    requestsPerSecond: round(requests / result.duration, 0),
    latencyP50Ms: round(quantile(times, 0.5), 2),
    latencyP99Ms: round(quantile(times, 0.99), 2),
    requests,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    bytesPerResponse: requests > 0 ? Math.round(result.throughput.total / requests) : 0,
  };
}

/**
 * Warms the server up, then measures it with autocannon (same settings for every server).
 * With the server's pid, also its CPU time per request: on a shared machine, req/s depends on
 * what else runs, CPU per request much less.
 */
export async function measureThroughput(target: LoadTarget, settings: LoadSettings, pid?: number): Promise<ThroughputFigures> {
  const base = { url: target.url, headers: target.headers ?? {}, connections: settings.connections };
  if (settings.warmup > 0) await autocannon({ ...base, duration: settings.warmup });
  const times: number[] = [];
  const cpuBefore = pid === undefined ? undefined : await cpuMs(pid);
  const instance = autocannon({ ...base, duration: settings.duration });
  instance.on('response', (_client, _status, _bytes, ms) => times.push(ms));
  const result = figures(await instance, times);
  const cpuAfter = pid === undefined ? undefined : await cpuMs(pid);
  if (cpuBefore === undefined || cpuAfter === undefined || result.requests === 0) return result;
  return { ...result, cpuMicrosPerRequest: round(((cpuAfter - cpuBefore) * 1000) / result.requests, 1) };
}
