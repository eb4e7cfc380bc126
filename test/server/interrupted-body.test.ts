import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFake, type Fake } from '../../src/fake/create-fake.js';
import { exchange, openSocket } from '../helpers/raw-socket.js';
import { API, expectError, spec } from './helpers.js';

// A request whose body never arrives whole: the client goes away mid-body, or sends part of it
// and stops until the request timeout. Neither is a failure of the fake.

const lines: string[] = [];
let fake: Fake;
let origin: string;
beforeAll(async () => {
  fake = await createFake({
    spec,
    docs: false,
    records: 20,
    logger: { level: 'info', format: 'json', stream: { write: (line) => void lines.push(line) } },
    // Short, so that the stalled body below is cut while the test runs.
    connections: { headersTimeoutMs: 300, requestTimeoutMs: 600, checkIntervalMs: 50 },
  });
  ({ origin } = await fake.listen());
});
afterAll(() => fake.close());

const partLogIn = (framing: string, part: string) =>
  `POST ${API}/users/session HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n${framing}\r\n${part}`;
const PARTS = [partLogIn('Content-Length: 100\r\n', '{"login":"viewer"'), partLogIn('Transfer-Encoding: chunked\r\n', '5\r\n{"log')];

/** Waits until the journal holds `count` requests (the fake records one when it gives up on the body). */
async function journalOf(count: number) {
  for (let i = 0; i < 100; i++) {
    const records = await fake.requests();
    if (records.length >= count) return records;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error(`the journal did not reach ${count} requests`);
}

describe('a request body that never arrives whole', () => {
  it('cut by the request timeout: the client gets 408 REQUEST_TIMEOUT, and the journal says so, not a 500', async () => {
    await fake.clearRequests();
    lines.length = 0;
    for (const request of PARTS) {
      const { answer, closedByServer } = await exchange(origin, request);
      expect(closedByServer).toBe(true);
      expectError(answer as unknown as LightMyRequestResponse, 408, 'REQUEST_TIMEOUT');
    }
    const journal = await journalOf(PARTS.length);
    expect(journal.map((r) => [r.status, r.error?.code])).toEqual(PARTS.map(() => [408, 'REQUEST_TIMEOUT']));
    expect(lines.join('')).not.toMatch(/"level":50|request failed|INTERNAL_ERROR/);
  });

  it('cut by the request timeout: the log has its line, by method and masked URL, with no credential', async () => {
    await fake.clearRequests();
    lines.length = 0;
    const token = 'a1b2c3d4e5f6-token-in-the-query';
    const password = 'password-in-the-authorization-header';
    const authorization = Buffer.from(`admin:${password}`).toString('base64');
    const request = `POST ${API}/users/session?api-token=${token} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Basic ${authorization}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"login"`;
    const { answer } = await exchange(origin, request);
    expectError(answer as unknown as LightMyRequestResponse, 408, 'REQUEST_TIMEOUT');
    await journalOf(1);
    const logged = lines.map((line) => JSON.parse(line) as { req?: { method?: string; url?: string }; res?: { statusCode?: number } });
    expect(logged.filter((line) => line.res?.statusCode === 408).map((line) => line.req)).toEqual([
      { method: 'POST', url: `${API}/users/session?api-token=[redacted]`, remoteAddress: '127.0.0.1' },
    ]);
    const log = lines.join('');
    for (const secret of [token, password, authorization]) expect(log).not.toContain(secret);
    expect(log).not.toMatch(/authorization/i);
  });

  it('left by the client mid-body: the journal and the log show no failure of the fake', async () => {
    await fake.clearRequests();
    lines.length = 0;
    for (const request of PARTS) {
      const socket = await openSocket(origin);
      socket.write(request);
      await new Promise((resolve) => setTimeout(resolve, 50));
      socket.destroy();
    }
    const journal = await journalOf(PARTS.length);
    expect(journal.map((r) => [r.status, r.error?.code])).toEqual(PARTS.map(() => [408, 'REQUEST_TIMEOUT']));
    expect(lines.join('')).not.toMatch(/"level":50|request failed|INTERNAL_ERROR/);
  });
});
