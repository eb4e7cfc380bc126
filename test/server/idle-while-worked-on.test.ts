import { connect } from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createFake, type Fake } from '../../src/fake/create-fake.js';
import { rawRequest } from '../helpers/raw-http.js';
import { API, basicOf, expectConforms, spec } from './helpers.js';

// Far below the time the requests below are worked on.
const IDLE_MS = 250;

let fake: Fake | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function listening(options: Parameters<typeof createFake>[0]): Promise<string> {
  fake = await createFake({ spec, docs: false, ...options, connections: { idleTimeoutMs: IDLE_MS, ...options?.connections } });
  return (await fake.listen()).origin;
}

describe('the idle timeout of a connection', () => {
  it('does not cut an answer delayed by an added latency', async () => {
    const origin = await listening({ records: 20 });
    const answer = await rawRequest(origin, { path: `${API}/users/current`, headers: { ...basicOf('viewer'), prefer: `latency=${IDLE_MS * 3}` } });
    expectConforms('getCurrentUser', answer as unknown as LightMyRequestResponse);
    expect(answer.statusCode).toBe(200);
  });

  it('still closes a connection whose request stops halfway through its body', async () => {
    const origin = await listening({ records: 20, connections: { requestTimeoutMs: 30_000, headersTimeoutMs: 30_000 } });
    const { hostname, port } = new URL(origin);
    const socket = connect(Number(port), hostname);
    socket.on('error', () => undefined);
    const received: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => received.push(chunk));
    const started = performance.now();
    socket.write(`POST ${API}/users/session HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"login":`);
    await new Promise((resolve) => socket.once('close', resolve));
    const took = performance.now() - started;
    expect(took).toBeGreaterThan(IDLE_MS - 50);
    expect(took).toBeLessThan(IDLE_MS + 3000);
    expect(Buffer.concat(received).length, 'closed without an answer, as before').toBe(0);
  });
});
