import { readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import { Client } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFake, type Fake } from '../../src/fake/create-fake.js';
import { rawRequest } from '../helpers/raw-http.js';
import { parseAnswer } from '../helpers/raw-socket.js';
import { API, basicOf, expectConforms, expectError, spec } from './helpers.js';

// Short limits, so that the test sees slow clients shed while it runs (the defaults are seconds).
const LIMITS = { maxConnections: 40, headersTimeoutMs: 400, requestTimeoutMs: 800, keepAliveTimeoutMs: 2000, checkIntervalMs: 50 };
const FLOOD = 100;

let fake: Fake;
let origin: string;
beforeAll(async () => {
  fake = await createFake({ spec, docs: false, records: 20, connections: LIMITS });
  ({ origin } = await fake.listen());
});
afterAll(() => fake.close());

/**
 * A slow client: `start` runs once connected; `closed` gives what it received when the
 * connection ended (a connection the server drops at once may end before it even connects).
 */
function slowClient(start: (socket: Socket) => void): { closed: Promise<Buffer> } {
  const { hostname, port } = new URL(origin);
  const socket = connect(Number(port), hostname);
  const received: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => received.push(chunk));
  socket.on('error', () => undefined);
  socket.once('connect', () => start(socket));
  return { closed: new Promise<Buffer>((resolve) => socket.once('close', () => resolve(Buffer.concat(received)))) };
}

/** Writes a header line now and then, never the blank line that ends the headers. */
const trickleHeaders = (socket: Socket) => {
  socket.write(`GET ${API}/users/current HTTP/1.1\r\nHost: 127.0.0.1\r\n`);
  const timer = setInterval(() => (socket.writable ? socket.write('X-Slow: 1\r\n') : clearInterval(timer)), 100);
  socket.once('close', () => clearInterval(timer));
};
const sendNothing = () => undefined;
const trickleBody = (socket: Socket) => {
  socket.write(`POST ${API}/users/session HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`);
  const timer = setInterval(() => (socket.writable ? socket.write(' ') : clearInterval(timer)), 100);
  socket.once('close', () => clearInterval(timer));
};

describe('a flood of slow connections', () => {
  it('is shed within the timeouts and the cap, while a connected client keeps being served and new ones are served after', async () => {
    // Keeps its connection between requests (the server's keep-alive hint is 2 s).
    const normal = new Client(origin, { pipelining: 1, keepAliveTimeoutThreshold: 500 });
    const serve = async () => {
      const response = await normal.request({ method: 'GET', path: `${API}/users/current`, headers: basicOf('viewer') });
      const answer = { statusCode: response.statusCode, headers: response.headers, body: await response.body.text() };
      expectConforms('getCurrentUser', answer as unknown as LightMyRequestResponse);
      return answer.statusCode;
    };
    expect(await serve()).toBe(200);

    const kinds = [trickleHeaders, sendNothing, trickleBody];
    const flood = Array.from({ length: FLOOD }, (_, i) => slowClient(kinds[i % kinds.length]!));
    let shed = false;
    const all = Promise.all(flood.map((c) => c.closed)).then((received) => {
      shed = true;
      return received;
    });
    const served: number[] = [];
    while (!shed) {
      served.push(await serve());
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const received = await all;
    await normal.close();

    expect(served.length).toBeGreaterThan(3);
    expect(served.every((status) => status === 200)).toBe(true);
    // Those let in got the document's 408; those over the cap were closed without a word.
    const answers = received.map((bytes) => parseAnswer(bytes));
    const timedOut = answers.filter((a) => a !== undefined);
    expect(timedOut.length).toBeGreaterThan(0);
    for (const answer of timedOut) expectError(answer as unknown as LightMyRequestResponse, 408, 'REQUEST_TIMEOUT');
    expect(answers.length - timedOut.length, 'connections over the cap').toBeGreaterThan(0);

    const fresh = await rawRequest(origin, { path: `${API}/users/current`, headers: basicOf('viewer') });
    expectConforms('getCurrentUser', fresh as unknown as LightMyRequestResponse);
    expect(fresh.statusCode).toBe(200);
  });

  it('an idle keep-alive connection is closed after its timeout', async () => {
    const client = slowClient((socket) => socket.write(`GET ${API}/users/current HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`));
    const answer = parseAnswer(await client.closed);
    expectError(answer as unknown as LightMyRequestResponse, 401, 'UNAUTHENTICATED');
    expectConforms('getCurrentUser', answer as unknown as LightMyRequestResponse);
  });
});

/** Linux's limit of a listen backlog (undefined elsewhere): the fake's queue of new connections. */
const somaxconn = (() => {
  try {
    return Number(readFileSync('/proc/sys/net/core/somaxconn', 'utf8'));
  } catch {
    return undefined;
  }
})();
// More than Node's default backlog (511): the connections past it used to wait for a SYN retry.
const BURST = 1000;

/** A connection the fake has accepted: it answered a request on it, and keeps it open (keep-alive). */
async function acceptedConnection(at: string): Promise<Socket> {
  const { hostname, port } = new URL(at);
  const socket = connect(Number(port), hostname);
  socket.on('error', () => undefined);
  socket.write(`GET ${API}/users/current HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  await new Promise((resolve) => socket.once('data', resolve));
  return socket;
}

/** One connection that sends a request at once: how long connecting and being closed took, and what came back. */
function attempt(at: string): Promise<{ connectMs: number; closedMs: number; received: number }> {
  const { hostname, port } = new URL(at);
  const start = performance.now();
  let connectMs = Infinity;
  let received = 0;
  const socket = connect(Number(port), hostname);
  socket.on('error', () => undefined);
  socket.once('connect', () => {
    connectMs = performance.now() - start;
    socket.write(`GET ${API}/users/current HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
  });
  socket.on('data', (chunk: Buffer) => (received += chunk.length));
  return new Promise((resolve) => socket.once('close', () => resolve({ connectMs, closedMs: performance.now() - start, received })));
}

describe('connections over the cap', () => {
  it.skipIf(!(somaxconn !== undefined && somaxconn >= BURST))('are closed at once without an answer, a burst of them too, and the fake serves again once under the cap', async () => {
    const CAP = 20;
    const capped = await createFake({ spec, docs: false, records: 20, connections: { maxConnections: CAP } });
    const at = (await capped.listen()).origin;
    const held: Socket[] = [];
    try {
      for (let i = 0; i < CAP; i++) held.push(await acceptedConnection(at));
      const one = await attempt(at);
      expect(one.received, 'no answer over the cap').toBe(0);
      expect(one.closedMs).toBeLessThan(500);

      const burst = await Promise.all(Array.from({ length: BURST }, () => attempt(at)));
      expect(burst.filter((a) => a.received > 0), 'no answer over the cap').toEqual([]);
      // A connection the kernel has no room to queue loses its SYN and waits for the retry (1 s, then 3 s).
      const waited = burst.filter((a) => a.connectMs >= 1000);
      expect(waited.length, 'connections that waited for a SYN retry').toBeLessThan(BURST / 20);

      for (const socket of held) socket.destroy();
      let answer: Awaited<ReturnType<typeof rawRequest>> | undefined;
      // The fake notices the closed connections a moment later: ask until it answers (bounded).
      for (let i = 0; i < 100 && answer === undefined; i++) answer = await rawRequest(at, { path: `${API}/users/current`, headers: basicOf('viewer') }).catch(() => undefined);
      expectConforms('getCurrentUser', answer as unknown as LightMyRequestResponse);
      expect(answer?.statusCode).toBe(200);
    } finally {
      for (const socket of held) socket.destroy();
      await capped.close();
    }
  });
});
