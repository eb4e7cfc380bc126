import { once } from 'node:events';
import { request, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { buildFake } from '../../src/server/build.js';
import type { ConnectionLimits } from '../../src/server/connection-limits.js';
import { PAGE_CHUNK_BYTES } from '../../src/server/page-stream.js';
import { rawRequest } from '../helpers/raw-http.js';
import { API, basicOf, expectConforms, spec } from './helpers.js';

// About 25 MB of JSON text: far more than the kernel buffers a reader that stopped reading.
const RECORDS = 40_000;
const SEEDED = RECORDS + 7; // and the records of fixtures/events.json

/** A fake with these records and connection limits, listening, and its ends of the connections. */
async function listening(options: { records: number; connections?: Partial<ConnectionLimits> }) {
  const lines: string[] = [];
  const app = await buildFake({ spec, docs: false, ...options, logger: { level: 'info', stream: { write: (line) => void lines.push(line) } } });
  // The records are made on the event log's first use: made now, so that no page waits for them.
  await app.inject({ url: `${API}/event-log?limit=1`, headers: basicOf('viewer') });
  const serverSockets: Socket[] = [];
  app.server.on('connection', (socket: Socket) => serverSockets.push(socket));
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return { app, lines, serverSockets, port, origin: `http://127.0.0.1:${port}` };
}
type Listening = Awaited<ReturnType<typeof listening>>;

const main = await listening({ records: RECORDS });
const { lines } = main;
afterAll(() => main.app.close());

/**
 * GET of the whole event log on a connection of its own, by a reader that stops reading after
 * the first bytes until `read` is called: the answer, the server's end of the connection.
 */
async function startWholeLog(fake: Listening = main) {
  const req = request({ host: '127.0.0.1', port: fake.port, path: `${API}/event-log`, headers: basicOf('viewer'), agent: false });
  req.end();
  const [response] = (await once(req, 'response')) as [IncomingMessage];
  const chunks: Buffer[] = [];
  let holding = true;
  response.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    if (holding) response.pause();
  });
  await once(response, 'data');
  const server = fake.serverSockets.find((s) => s.remotePort === req.socket?.localPort);
  if (!server) throw new Error('no server socket for the connection');
  /** Reads the rest: the whole body. */
  const read = async () => {
    holding = false;
    const ended = once(response, 'end');
    response.resume();
    await ended;
    return Buffer.concat(chunks);
  };
  /** Goes away mid-page (the errors of its own end are the point, not a failure). */
  const abort = () => {
    response.on('error', () => undefined);
    req.on('error', () => undefined);
    req.destroy();
  };
  return { req, response, server, chunks, read, abort };
}

/** Waits until the server has written nothing more for a second: it waits for the reader. */
async function whenStalled(server: Socket): Promise<number> {
  let written = server.bytesWritten;
  for (let still = 0; still < 10; ) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    still = server.bytesWritten === written ? still + 1 : 0;
    written = server.bytesWritten;
  }
  return written;
}

const currentUser = async (fake: Listening = main) => {
  const answer = await rawRequest(fake.origin, { path: `${API}/users/current`, headers: basicOf('viewer') });
  expectConforms('getCurrentUser', answer as unknown as LightMyRequestResponse);
  return answer.statusCode;
};

describe('a long page over a real connection', () => {
  it('is written as the client reads it: a reader that stops holds a chunk or two of the server, and other clients are served meanwhile', async () => {
    const page = await startWholeLog();
    expect(page.response.statusCode).toBe(200);
    expect(page.response.headers['transfer-encoding']).toBe('chunked');
    await whenStalled(page.server);
    // The server holds back the rest of the page, not its text: a chunk or two in its buffers.
    expect(page.server.writableLength).toBeLessThanOrEqual(3 * PAGE_CHUNK_BYTES);

    expect(await currentUser()).toBe(200);
    expect(await currentUser()).toBe(200);
    const writtenMeanwhile = page.server.bytesWritten;
    expect(page.response.complete).toBe(false);

    const body = await page.read();
    expect(writtenMeanwhile, 'the others were answered while the page was still being written').toBeLessThan(body.length / 2);
    const answer = { statusCode: page.response.statusCode, headers: page.response.headers, body: body.toString('utf8') };
    expectConforms('getEventLog', answer as unknown as LightMyRequestResponse);
    const records = JSON.parse(answer.body) as { timestamp: number }[];
    expect(records).toHaveLength(SEEDED);
    expect(JSON.stringify(records), 'JSON.stringify of the records, byte for byte').toBe(answer.body);
    const times = records.map((r) => r.timestamp);
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('stops when the client goes away mid-page, and the server goes on serving', async () => {
    const before = lines.length;
    const page = await startWholeLog();
    await whenStalled(page.server);
    page.abort();
    // The server's end closes (a reset, as the client left unread bytes), its page stopped.
    if (!page.server.destroyed) await new Promise((resolve) => page.server.once('close', resolve));
    expect(await currentUser()).toBe(200);
    const small = await rawRequest(main.origin, { path: `${API}/event-log?limit=5`, headers: basicOf('viewer') });
    expectConforms('getEventLog', small as unknown as LightMyRequestResponse);
    expect(JSON.parse(small.body)).toHaveLength(5);
    // A page cut short is no fault of the server: nothing logged at warn (40) or above.
    const levels = lines.slice(before).map((line) => (JSON.parse(line) as { level: number }).level);
    expect(levels.filter((level) => level >= 40)).toEqual([]);
  });
});

// Short limits, so that the tests see slow readers cut while they run (the defaults are minutes).
const IDLE_MS = 500;
const SEND_MS = 1000;
// At most a read of 64 KB every 50 ms: some 1.3 MB/s, 10 s and more for this page of about 12 MB.
const TRICKLE_RECORDS = 20_000;
const TRICKLE_EVERY_MS = 50;

/** How long after `since` the server's end of the connection closed. */
async function closedAfter(socket: Socket, since: number): Promise<number> {
  if (!socket.destroyed) await once(socket, 'close');
  return performance.now() - since;
}

/**
 * A reader of the whole log on a fake of these records and limits, left to `reading` after the
 * first bytes: how long after that the server closed the connection (another client is served
 * meanwhile and after), whether the page came whole, how many chunks it read, the fake's log.
 */
async function readerCut(options: Parameters<typeof listening>[0], reading: (page: Awaited<ReturnType<typeof startWholeLog>>) => void) {
  const fake = await listening(options);
  try {
    const page = await startWholeLog(fake);
    page.response.on('error', () => undefined);
    const started = performance.now();
    reading(page);
    expect(await currentUser(fake)).toBe(200);
    const took = await closedAfter(page.server, started);
    expect(await currentUser(fake)).toBe(200);
    page.abort();
    return { took, complete: page.response.complete, chunks: page.chunks.length, lines: fake.lines };
  } finally {
    await fake.app.close();
  }
}

describe('a reader too slow for a long page', () => {
  it('loses the connection at the idle timeout once it stops reading, while others are served', async () => {
    const cut = await readerCut({ records: RECORDS, connections: { idleTimeoutMs: IDLE_MS } }, () => undefined);
    // Nothing moves once the kernel's buffers are full: cut at the idle timeout, not the send timeout (minutes).
    expect(cut.took).toBeGreaterThan(IDLE_MS - 100);
    expect(cut.took).toBeLessThan(IDLE_MS + 3000);
    expect(cut.complete, 'the page was cut short').toBe(false);
  });

  it('loses the connection at the send timeout when it reads a little now and then, while others are served', async () => {
    const cut = await readerCut({ records: TRICKLE_RECORDS, connections: { sendTimeoutMs: SEND_MS } }, (page) => {
      // Each read is followed by a pause: the connection keeps moving (the idle timeout, 120 s,
      // never comes), far slower than the page.
      page.response.on('data', () => setTimeout(() => page.response.resume(), TRICKLE_EVERY_MS));
      page.response.resume();
    });
    expect(cut.took).toBeGreaterThan(SEND_MS - 100);
    expect(cut.took).toBeLessThan(SEND_MS + 3000);
    expect(cut.complete, 'the page was cut short').toBe(false);
    expect(cut.chunks, 'the reader kept reading until it was cut').toBeGreaterThan(3);
    // Said once, at info: a client too slow is no fault of the server.
    const cuts = cut.lines.map((line) => JSON.parse(line) as { level: number; msg: string }).filter((l) => /send timeout/.test(l.msg));
    expect(cuts.map((l) => l.level)).toEqual([30]);
  });
});
