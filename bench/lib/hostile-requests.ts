// The hostile requests of `npm run bench:hostile`, and the loop that sends them one at a time.
import { streamingUpload } from '../../test/helpers/streaming-upload.js';
import { adminBasic } from './servers.js';
import { quantile, round } from './stats.js';

const operatorBasic = `Basic ${Buffer.from('operator:operator-password').toString('base64')}`;
const filterPath = (filter: string) => `/node/api/event-log?limit=50&filter=${encodeURIComponent(filter)}`;
/** Every matching record: a scan of the whole log, however few match. */
const scanPath = (filter: unknown) => `/node/api/event-log?filter=${encodeURIComponent(JSON.stringify(filter))}`;
const regexScan = (pattern: string, options = '') => ({ path: scanPath({ 'payload.text': { $regex: pattern, $options: options } }) });

export interface Hostile {
  readonly label: string;
  /** The right answers: a refusal, or for a filter an answer or a refusal. */
  readonly expect: readonly number[];
  /** The slowest right answer that is fast enough, in ms. */
  readonly withinMs: number;
  readonly request: (recordId: string) => { path: string; method?: 'GET' | 'POST' | 'PATCH'; headers?: Record<string, string>; body?: string };
}

const bigBody = JSON.stringify({ login: 'admin', password: 'x'.repeat(70 * 1024) });
const hugeBody = JSON.stringify({ text: 'x'.repeat(5 * 1024 * 1024) });
// A filter from any user is answered or refused within a second, even on the largest logs.
const FILTER_MS = 1_000;
const words = Array.from({ length: 40 }, (_, i) => `w${i}x`).join('|').slice(0, 180);
export const HOSTILE: readonly Hostile[] = [
  { label: 'POST /users/session, 70 KiB body', expect: [413], withinMs: 100, request: () => ({ path: '/node/api/users/session', method: 'POST', headers: { 'content-type': 'application/json' }, body: bigBody }) },
  {
    label: 'PATCH payload, 5 MiB body',
    expect: [413],
    withinMs: 100,
    request: (id) => ({ path: `/node/api/event-log/${id}/payload`, method: 'PATCH', headers: { authorization: operatorBasic, 'content-type': 'application/json' }, body: hugeBody }),
  },
  { label: 'filter nested 1,000 levels', expect: [400], withinMs: 100, request: () => ({ path: filterPath('{"a":'.repeat(1000) + '1' + '}'.repeat(1000)) }) },
  { label: 'filter $and nested 500 levels', expect: [400], withinMs: 100, request: () => ({ path: filterPath('{"$and":['.repeat(500) + '{"type":"snmp-trap"}' + ']}'.repeat(500)) }) },
  { label: '$where', expect: [400], withinMs: 100, request: () => ({ path: filterPath('{"$where":"while(true){}"}') }) },
  // Regexes that backtrack catastrophically in JavaScript, each over every record.
  { label: 'regex (a+)+$', expect: [200, 400], withinMs: FILTER_MS, request: () => regexScan('(a+)+$') },
  { label: 'regex ^(([a-z])+.)+[A-Z]([a-z])+$', expect: [200, 400], withinMs: FILTER_MS, request: () => regexScan('^(([a-z])+.)+[A-Z]([a-z])+$') },
  { label: 'regex (.*a){20}', expect: [200, 400], withinMs: FILTER_MS, request: () => regexScan('(.*a){20}') },
  { label: 'regex .{0,200} ×5 then !', expect: [200, 400], withinMs: FILTER_MS, request: () => regexScan('.{0,200}.{0,200}.{0,200}.{0,200}.{0,200}!') },
  { label: 'regex .*.*.*x, i', expect: [200, 400], withinMs: FILTER_MS, request: () => regexScan('.*.*.*x', 'i') },
  { label: 'regex ((a|b)*c+)+ nested, i', expect: [200, 400], withinMs: FILTER_MS, request: () => regexScan('((a|b)*c+)+d', 'i') },
  { label: 'regex alternation of 40 words, repeated', expect: [200, 400], withinMs: FILTER_MS, request: () => regexScan(`(?:${words})+!`, 'i') },
  { label: 'regex long: [^x]{0,400} ×7 then a digit', expect: [200, 400], withinMs: FILTER_MS, request: () => regexScan(`${'[^x]{0,400}'.repeat(7)}[0-9]`) },
  { label: 'regex with a large automaton: [a-z ]*[aeiou][a-z ]{60}[0-9]', expect: [200, 400], withinMs: FILTER_MS, request: () => regexScan('[a-z ]*[aeiou][a-z ]{60}[0-9]', 'i') },
  {
    label: '10 regexes with large automata in $or',
    expect: [200, 400],
    withinMs: FILTER_MS,
    request: () => ({
      path: scanPath({ $or: Array.from({ length: 10 }, (_, i) => ({ 'payload.text': { $regex: `[^0-9][^x]{0,250}[^x]{0,250}[^x]{0,250}[0-9]{${i + 5}}` } })) }),
    }),
  },
];

export interface HostileResult {
  readonly label: string;
  readonly expect: readonly number[];
  readonly withinMs: number;
  /** How many answers had each status (0: no answer, the connection failed). */
  readonly statuses: Record<number, number>;
  readonly p50Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
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
      withinMs: hostile.withinMs,
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
