import { once } from 'node:events';
import { request, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { buildFake } from '../../src/server/build.js';
import { PAGE_CHUNK_BYTES } from '../../src/server/page-stream.js';
import { rawRequest } from '../helpers/raw-http.js';
import { API, basicOf, expectConforms, spec } from './helpers.js';

// About 25 MB of JSON text: far more than the kernel buffers a reader that stopped reading.
const RECORDS = 40_000;
const SEEDED = RECORDS + 7; // and the records of fixtures/events.json

const lines: string[] = [];
const app = await buildFake({ spec, docs: false, records: RECORDS, logger: { level: 'info', stream: { write: (line) => void lines.push(line) } } });
const serverSockets: Socket[] = [];
app.server.on('connection', (socket: Socket) => serverSockets.push(socket));
await app.listen({ host: '127.0.0.1', port: 0 });
const { port } = app.server.address() as AddressInfo;
const origin = `http://127.0.0.1:${port}`;
afterAll(() => app.close());

/**
 * GET of the whole event log on a connection of its own, by a reader that stops reading after
 * the first bytes until `read` is called: the answer, the server's end of the connection.
 */
async function startWholeLog() {
  const req = request({ host: '127.0.0.1', port, path: `${API}/event-log`, headers: basicOf('viewer'), agent: false });
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
  return { response, server, read, abort };
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

const currentUser = async () => {
  const answer = await rawRequest(origin, { path: `${API}/users/current`, headers: basicOf('viewer') });
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
    const small = await rawRequest(origin, { path: `${API}/event-log?limit=5`, headers: basicOf('viewer') });
    expectConforms('getEventLog', small as unknown as LightMyRequestResponse);
    expect(JSON.parse(small.body)).toHaveLength(5);
    // A page cut short is no fault of the server: nothing logged at warn (40) or above.
    const levels = lines.slice(before).map((line) => (JSON.parse(line) as { level: number }).level);
    expect(levels.filter((level) => level >= 40)).toEqual([]);
  });
});
