// The slow-connection flood of `npm run bench:hostile`: many connections that never finish a
// request (slowloris), held open against a listening fake, while new connections ask for
// /users/current. Loopback only; the count is bounded and every connection ends by the
// fake's timeouts (or after a deadline, counted as not shed).
import { connect, type Socket } from 'node:net';
import { defaultConnectionLimits } from '../../src/server/options.js';
import type { HostileResult } from './hostile-requests.js';
import { loopDelayPhase } from './loop-delay.js';
import { epochNow, startProbes } from './probes.js';
import { quantile, round } from './stats.js';

interface SlowKind {
  readonly label: string;
  /** How long the fake may take to shed it: its timeout, the check interval and a second of slack. */
  readonly withinMs: number;
  readonly start: (socket: Socket) => void;
}

const dribble = (socket: Socket, first: string, more: string) => {
  socket.write(first);
  const timer = setInterval(() => (socket.writable ? socket.write(more) : clearInterval(timer)), 1000);
  socket.once('close', () => clearInterval(timer));
};
const limits = defaultConnectionLimits;
const KINDS: readonly SlowKind[] = [
  {
    label: 'headers never end (a line a second)',
    withinMs: limits.headersTimeoutMs + limits.checkIntervalMs + 1000,
    start: (s) => dribble(s, 'GET /node/api/users/current HTTP/1.1\r\nHost: 127.0.0.1\r\n', 'X-Slow: 1\r\n'),
  },
  { label: 'nothing sent', withinMs: limits.headersTimeoutMs + limits.checkIntervalMs + 1000, start: () => undefined },
  {
    label: 'body never ends (a byte a second)',
    withinMs: limits.requestTimeoutMs + limits.checkIntervalMs + 1000,
    start: (s) => dribble(s, 'POST /node/api/users/session HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{', ' '),
  },
];

/** The status of an answer from the first bytes read of it (0 before its status line). */
export const statusOfHead = (head: string): number => Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);

/** Opens one slow connection; resolves when it ends with the status the fake answered (0: none) and how long it lived. */
function slowConnection(origin: URL, kind: SlowKind, deadlineMs: number, opened: () => void): Promise<{ status: number; ms: number }> {
  return new Promise((resolve) => {
    const t0 = performance.now();
    const socket = connect(Number(origin.port), origin.hostname);
    let head = '';
    socket.on('data', (chunk: Buffer) => (head += chunk.toString('latin1').slice(0, 64)));
    socket.on('error', () => undefined);
    socket.once('connect', () => {
      opened();
      kind.start(socket);
    });
    const deadline = setTimeout(() => socket.destroy(), deadlineMs);
    socket.once('close', () => {
      opened();
      clearTimeout(deadline);
      const ms = performance.now() - t0;
      // Destroyed by us at the deadline: not shed.
      resolve({ status: ms >= deadlineMs ? -1 : statusOfHead(head), ms });
    });
  });
}

const counts = (statuses: readonly number[]) => {
  const map = new Map<number, number>();
  for (const s of statuses) map.set(s, (map.get(s) ?? 0) + 1);
  return Object.fromEntries(map) as Record<number, number>;
};

export const row = (label: string, expect: number, statuses: readonly number[], times: readonly number[], withinMs: number): HostileResult => ({
  label,
  expect: [expect],
  withinMs,
  statuses: counts(statuses),
  p50Ms: round(quantile(times, 0.5), 2),
  p99Ms: round(quantile(times, 0.99), 2),
  maxMs: round(Math.max(...times), 2),
});

/** How often a new connection asks for /users/current while the flood runs: a few land in the flood's opening, which lasts well under a second. */
const PROBE_MS = 25;

/**
 * Opens `count` slow connections (a third of each kind) at once and, while they are open, asks
 * for /users/current on a new connection every 25 ms from a process of its own (probes.ts). Rows:
 * each kind (expected: the document's 408, within the fake's timeout for it) and the new
 * connections, apart while the flood's connections are being opened and once they are all open
 * (expected: 200 within 100 ms); and the fake's own event-loop delay over the flood (loop-delay.ts).
 */
export async function floodSlowConnections(originText: string, count: number, serverPid: number, log: (line: string) => void): Promise<HostileResult[]> {
  const origin = new URL(originText);
  const deadlineMs = Math.max(...KINDS.map((k) => k.withinMs)) + 10_000;
  log(`slow-connection flood: ${count} connections, at most ${deadlineMs / 1000} s`);
  const probes = startProbes(originText, PROBE_MS);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const delay = await loopDelayPhase(serverPid);
  let opening = count;
  const openingStarted = epochNow();
  let openingEnded = Infinity;
  const flood = Array.from({ length: count }, (_, i) => {
    const kind = KINDS[i % KINDS.length]!;
    let counted = false;
    const opened = () => {
      if (counted) return;
      counted = true;
      if (--opening === 0) openingEnded = epochNow();
    };
    return slowConnection(origin, kind, deadlineMs, opened).then((end) => ({ kind, ...end }));
  });
  const ends = await Promise.all(flood);
  const floodEnded = epochNow();
  const delayRows = await delay.stop(`the fake's own event-loop delay over the flood (monitorEventLoopDelay in the fake, 10 ms resolution)`, 100);
  const answers = await probes.stop();
  log(`the flood's connections were opened in ${Math.round(Math.min(openingEnded, floodEnded) - openingStarted)} ms`);
  const rows = KINDS.map((kind) => {
    const mine = ends.filter((e) => e.kind === kind);
    return row(`slow connections, ${kind.label} ×${mine.length}: time to be shed`, 408, mine.map((e) => e.status), mine.map((e) => e.ms), kind.withinMs);
  });
  for (const [label, from, to] of [
    ['while the flood connects', openingStarted, openingEnded],
    ['while the flood is held open', openingEnded, floodEnded],
  ] as const) {
    const mine = answers.filter((a) => a.at >= from && a.at < to);
    if (mine.length > 0) rows.push(row(`new connections ${label} (GET /users/current, another process) ×${mine.length}`, 200, mine.map((a) => a.status), mine.map((a) => a.ms), 100));
  }
  rows.push(...delayRows);
  for (const r of rows) log(`${r.label}: ${JSON.stringify(r.statuses)} p50 ${r.p50Ms} ms, max ${r.maxMs} ms`);
  return rows;
}
