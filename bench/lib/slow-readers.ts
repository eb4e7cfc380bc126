// The slow readers of `npm run bench:hostile`: clients that ask for the whole event log (a page
// the fake streams) and then take a chunk a second, held for a while, as new connections are
// served. A reader that slow holds its page until the send timeout (5 minutes); what is measured
// is that nothing else waits for it and what it costs in memory while it is held.
import { connect } from 'node:net';
import { defaultConnectionLimits } from '../../src/server/options.js';
import type { HostileResult } from './hostile-requests.js';
import { residentBytes } from './machine.js';
import { loopDelayPhase } from './loop-delay.js';
import { epochNow, startProbes } from './probes.js';
import { row, statusOfHead } from './slow-connections.js';
import { adminBasic } from './servers.js';

interface Reader {
  /** The status line's code, once read (0 before). */
  status(): number;
  bytes(): number;
  close(): void;
}

/** One reader of the whole log that takes one chunk (up to 64 KiB) a second. */
function slowReader(origin: URL): Reader {
  const socket = connect(Number(origin.port), origin.hostname);
  let head = '';
  let bytes = 0;
  socket.on('error', () => undefined);
  socket.write(`GET /node/api/event-log HTTP/1.1\r\nHost: ${origin.host}\r\nAuthorization: ${adminBasic}\r\n\r\n`);
  socket.on('data', (chunk: Buffer) => {
    if (head.length < 16) head += chunk.toString('latin1', 0, 16);
    bytes += chunk.length;
    socket.pause();
    setTimeout(() => socket.resume(), 1000).unref();
  });
  return {
    status: () => statusOfHead(head),
    bytes: () => bytes,
    close: () => socket.destroy(),
  };
}

const mb = (bytes: number | undefined) => (bytes === undefined ? '?' : `${Math.round(bytes / 2 ** 20)} MB`);

/**
 * Holds `count` slow readers for `holdMs` while new connections ask for /users/current every
 * 25 ms from another process. Rows: the readers (expected: the page's 200, its first bytes
 * within a second), and the new connections meanwhile (expected: 200 within 100 ms). The fake's
 * resident memory before, while they are held and after they are gone is in the readers' label.
 */
export async function holdSlowReaders(originText: string, serverPid: number, count: number, holdMs: number, log: (line: string) => void): Promise<HostileResult[]> {
  const origin = new URL(originText);
  log(`slow readers: ${count} of the whole log, held ${holdMs / 1000} s (the idle timeout is ${defaultConnectionLimits.idleTimeoutMs / 1000} s)`);
  const before = await residentBytes(serverPid);
  const probes = startProbes(originText, 25);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const delay = await loopDelayPhase(serverPid);
  const started = epochNow();
  const readers = Array.from({ length: count }, () => ({ reader: slowReader(origin), at: epochNow(), firstMs: Infinity }));
  const watch = setInterval(() => {
    for (const r of readers) if (r.firstMs === Infinity && r.reader.status() > 0) r.firstMs = epochNow() - r.at;
  }, 10);
  await new Promise((resolve) => setTimeout(resolve, holdMs));
  clearInterval(watch);
  const held = await residentBytes(serverPid);
  const ended = epochNow();
  const delayRows = await delay.stop(`the fake's own event-loop delay while the slow readers hold their pages (monitorEventLoopDelay in the fake, 10 ms resolution)`, 100);
  const answers = await probes.stop();
  const read = readers.reduce((sum, r) => sum + r.reader.bytes(), 0);
  for (const r of readers) r.reader.close();
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const after = await residentBytes(serverPid);
  const memory = `the fake's RSS ${mb(before)} before, ${mb(held)} while held, ${mb(after)} 3 s after`;
  log(`slow readers took ${mb(read)} in all; ${memory}`);
  const mine = answers.filter((a) => a.at >= started && a.at < ended);
  return [
    row(`slow readers of the whole log ×${count}, a chunk a second for ${holdMs / 1000} s (${memory}): first bytes`, 200, readers.map((r) => r.reader.status()), readers.map((r) => r.firstMs), 1000),
    row(`new connections while the slow readers hold their pages (GET /users/current, another process) ×${mine.length}`, 200, mine.map((a) => a.status), mine.map((a) => a.ms), 100),
    ...delayRows,
  ];
}
