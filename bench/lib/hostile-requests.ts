// The hostile requests of `npm run bench:hostile`, and the loop that sends them one at a time.
import { streamingUpload } from '../../test/helpers/streaming-upload.js';
import { adminBasic } from './servers.js';
import { quantile, round } from './stats.js';

const operatorBasic = `Basic ${Buffer.from('operator:operator-password').toString('base64')}`;
const filterPath = (filter: string) => `/node/api/event-log?limit=50&filter=${encodeURIComponent(filter)}`;

export interface Hostile {
  readonly label: string;
  readonly expect: number;
  readonly request: (recordId: string) => { path: string; method?: 'GET' | 'POST' | 'PATCH'; headers?: Record<string, string>; body?: string };
}

const bigBody = JSON.stringify({ login: 'admin', password: 'x'.repeat(70 * 1024) });
const hugeBody = JSON.stringify({ text: 'x'.repeat(5 * 1024 * 1024) });
export const HOSTILE: readonly Hostile[] = [
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
];

export interface HostileResult {
  readonly label: string;
  readonly expect: number;
  /** How many answers had each status (0: no answer, the connection failed). */
  readonly statuses: Record<number, number>;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  /** The longest time that is still fine (default 100 ms); slow clients are shed by timeouts of seconds. */
  readonly withinMs?: number;
}

/** Sends each hostile request `repeat` times, one at a time, each on a fresh connection. */
export async function sendHostile(origin: string, recordId: string, repeat: number, log: (line: string) => void): Promise<HostileResult[]> {
  const results: HostileResult[] = [];
  for (const hostile of HOSTILE) {
    const times: number[] = [];
    const counts = new Map<number, number>();
    for (let i = 0; i < repeat; i++) {
      const { path, ...init } = hostile.request(recordId);
      const answer = await streamingUpload(`${origin}${path}`, { ...init, headers: { authorization: adminBasic, ...init.headers } });
      counts.set(answer.status, (counts.get(answer.status) ?? 0) + 1);
      times.push(answer.ms);
    }
    const row = {
      label: hostile.label,
      expect: hostile.expect,
      statuses: Object.fromEntries(counts) as Record<number, number>,
      p50Ms: round(quantile(times, 0.5), 2),
      p99Ms: round(quantile(times, 0.99), 2),
      maxMs: round(Math.max(...times), 2),
    };
    log(`${row.label}: ${JSON.stringify(row.statuses)} p50 ${row.p50Ms} ms, max ${row.maxMs} ms`);
    results.push(row);
  }
  return results;
}
