import { connect } from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { createFake, type Fake } from '../../src/fake/create-fake.js';
import { rawRequest } from '../helpers/raw-http.js';
import { API, basicOf, expectConforms, spec } from './helpers.js';

const LATENCY_MS = 200;

let fake: Fake | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** A listening fake at `info` whose log lines are kept, each parsed. */
async function listening(): Promise<{ origin: string; lines: () => Record<string, unknown>[] }> {
  const written: string[] = [];
  fake = await createFake({ spec, docs: false, records: 20, latencyMs: LATENCY_MS, logger: { level: 'info', stream: { write: (line) => void written.push(line) } } });
  const { origin } = await fake.listen();
  const lines = () => written.join('').split('\n').filter((l) => l.includes('"reqId"')).map((l) => JSON.parse(l) as Record<string, unknown>);
  return { origin, lines };
}

describe('the line of a request at info', () => {
  it('counts the latency added to its answer, as the journal does', async () => {
    const { origin, lines } = await listening();
    const answer = await rawRequest(origin, { path: `${API}/users/current`, headers: basicOf('viewer') });
    expectConforms('getCurrentUser', answer as unknown as LightMyRequestResponse);
    expect(answer.statusCode).toBe(200);
    const [line] = lines();
    expect(line).toMatchObject({ res: { statusCode: 200 }, user: 'viewer', msg: 'request completed' });
    expect(line!.responseTime as number).toBeGreaterThanOrEqual(LATENCY_MS);
    const [kept] = fake!.app.fake.journal.list();
    expect(kept!.durationMs).toBeGreaterThanOrEqual(LATENCY_MS);
  });

  it('says so when the client left while its answer waited', async () => {
    const { origin, lines } = await listening();
    const { hostname, port } = new URL(origin);
    const socket = connect(Number(port), hostname);
    socket.on('error', () => undefined);
    // Gone once the server has the request, and well before its answer's latency has passed.
    const arrived = new Promise((resolve) => fake!.app.server.once('request', resolve));
    socket.write(`GET ${API}/users/current HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${basicOf('viewer').authorization}\r\n\r\n`);
    await arrived;
    socket.destroy();
    await expect.poll(() => lines().length, { timeout: LATENCY_MS * 10 }).toBe(1);
    expect(lines()[0]).toMatchObject({ res: { statusCode: 200 }, aborted: true, msg: 'request aborted' });
  });
});
