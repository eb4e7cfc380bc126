import { once } from 'node:events';
import { request, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { buildFake } from '../../src/server/build.js';
import type { ConnectionLimits } from '../../src/server/options.js';
import { PAGE_CHUNK_BYTES } from '../../src/server/body.js';
import { rawRequest } from '../helpers/raw-http.js';
import { API, basicOf, expectConforms, spec, USERS } from './helpers.js';

// About 25 MB of JSON text: far more than the kernel buffers a reader that stopped reading.
const RECORDS = 40_000;
const SEEDED = RECORDS + 7; // and the records of fixtures/events.json

const lines: string[] = [];
const prettyLines: string[] = [];
const serverSockets: Socket[] = [];
/** A fake listening on a port of its own, its log lines in `into`; `RECORDS` records unless told. */
async function listening(into: string[], format: 'json' | 'pretty', options: { records?: number; connections?: Partial<ConnectionLimits> } = {}) {
  const fake = await buildFake({ spec, docs: false, records: RECORDS, ...options, logger: { level: 'info', format, stream: { write: (line) => void into.push(line) } } });
  fake.server.on('connection', (socket: Socket) => serverSockets.push(socket));
  await fake.listen({ host: '127.0.0.1', port: 0 });
  return { fake, port: (fake.server.address() as AddressInfo).port };
}
const { fake: app, port } = await listening(lines, 'json');
const pretty = await listening(prettyLines, 'pretty');
const origin = `http://127.0.0.1:${port}`;
afterAll(() => Promise.all([app.close(), pretty.fake.close()]));

/** The parsed JSON log lines from `from` on. */
const linesFrom = (from: number) => lines.slice(from).map((line) => JSON.parse(line) as Record<string, unknown>);

/**
 * GET of the whole event log on a connection of its own, by a reader that stops reading after
 * the first bytes until `read` is called: the answer, the server's end of the connection.
 */
async function startWholeLog(onPort = port, query = '') {
  const req = request({ host: '127.0.0.1', port: onPort, path: `${API}/event-log${query}`, headers: basicOf('viewer'), agent: false });
  req.end();
  const [response] = (await once(req, 'response')) as [IncomingMessage];
  const chunks: Buffer[] = [];
  let holding = true;
  response.on('data', (chunk: Buffer) => {
    chunks.push(chunk);
    if (holding) response.pause();
  });
  await once(response, 'data');
  const server = serverSockets.find((s) => s.remotePort === req.socket?.localPort);
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
  return { response, server, chunks, read, abort };
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

const currentUser = async (at = origin) => {
  const answer = await rawRequest(at, { path: `${API}/users/current`, headers: basicOf('viewer') });
  expectConforms('getCurrentUser', answer as unknown as LightMyRequestResponse);
  return answer.statusCode;
};

describe('a long page over a real connection', () => {
  it('is written as the client reads it: a reader that stops holds a chunk or two of the server, and other clients are served meanwhile', async () => {
    const before = lines.length;
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
    // Read to its end: one request line, as for any answer, none saying it was cut short.
    await expect.poll(() => linesFrom(before).filter((l) => (l.req as { url: string }).url === `${API}/event-log`)).toHaveLength(1);
    const [line] = linesFrom(before).filter((l) => (l.req as { url: string }).url === `${API}/event-log`);
    expect(line).toMatchObject({ msg: 'request completed', res: { statusCode: 200 }, user: 'viewer' });
    expect(line).not.toHaveProperty('aborted');
  });

  it('stops when the client goes away mid-page, and the server goes on serving', async () => {
    const created = await app.inject({ method: 'POST', url: `${API}/users/${USERS.viewer.id}/auth-token`, headers: basicOf('admin') });
    expectConforms('createAuthToken', created);
    const token = JSON.parse(created.body) as string;
    const before = lines.length;
    const page = await startWholeLog(port, `?api-token=${token}`);
    await whenStalled(page.server);
    page.abort();
    // The server's end closes (a reset, as the client left unread bytes), its page stopped.
    if (!page.server.destroyed) await new Promise((resolve) => page.server.once('close', resolve));
    expect(await currentUser()).toBe(200);
    const small = await rawRequest(origin, { path: `${API}/event-log?limit=5`, headers: basicOf('viewer') });
    expectConforms('getEventLog', small as unknown as LightMyRequestResponse);
    expect(JSON.parse(small.body)).toHaveLength(5);
    // A page cut short is no fault of the server: nothing logged at warn (40) or above.
    const levels = linesFrom(before).map((line) => line.level as number);
    expect(levels.filter((level) => level >= 40)).toEqual([]);
    // Its request has its line (no onResponse runs for it), of the same fields as any
    // request's, saying it was cut short, with the status sent; and no other line of its own.
    const ofPage = linesFrom(before).filter((line) => (line.req as { url?: string } | undefined)?.url === `${API}/event-log?api-token=[redacted]` || line.msg !== 'request completed');
    expect(ofPage).toHaveLength(1);
    expect(ofPage[0]).toMatchObject({
      level: 30,
      req: { method: 'GET', url: `${API}/event-log?api-token=[redacted]`, remoteAddress: '127.0.0.1' },
      res: { statusCode: 200 },
      user: 'viewer',
      aborted: true,
      msg: 'request aborted',
    });
    expect(Object.keys(ofPage[0]!)).toEqual(['level', 'time', 'pid', 'hostname', 'reqId', 'req', 'res', 'responseTime', 'user', 'aborted', 'msg']);
    expect(ofPage[0]!.responseTime).toBeGreaterThan(0);
    expect(lines.join('')).not.toContain(token);
  });

  it('cut short, is one readable line in the pretty format too', async () => {
    // (After the line of the server's start.)
    const before = prettyLines.length;
    const page = await startWholeLog(pretty.port);
    await whenStalled(page.server);
    page.abort();
    if (!page.server.destroyed) await new Promise((resolve) => page.server.once('close', resolve));
    await expect.poll(() => prettyLines.length).toBe(before + 1);
    expect(prettyLines[before]).toMatch(/^\[[\d:.]+\] INFO: GET \/node\/api\/event-log 200 \d+\.\d ms viewer aborted\n$/);
  });
});

// A short idle timeout, so that the test sees a slow reader cut while it runs (the default is minutes).
const IDLE_MS = 500;

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
async function readerCut(options: Parameters<typeof listening>[2], reading: (page: Awaited<ReturnType<typeof startWholeLog>>) => void) {
  const log: string[] = [];
  const { fake, port: onPort } = await listening(log, 'json', options);
  const at = `http://127.0.0.1:${onPort}`;
  try {
    // The records are made on the event log's first use: made now, so that the page waits for nothing.
    await fake.inject({ url: `${API}/event-log?limit=1`, headers: basicOf('viewer') });
    const page = await startWholeLog(onPort);
    page.response.on('error', () => undefined);
    const started = performance.now();
    reading(page);
    expect(await currentUser(at)).toBe(200);
    const took = await closedAfter(page.server, started);
    expect(await currentUser(at)).toBe(200);
    page.abort();
    return { took, complete: page.response.complete, chunks: page.chunks.length, lines: log };
  } finally {
    await fake.close();
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

});
