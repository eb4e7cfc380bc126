import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFake, type Fake } from '../../src/fake/create-fake.js';
import { rawRequest } from '../helpers/raw-http.js';
import { exchange } from '../helpers/raw-socket.js';
import { basic, expectConforms, expectError, spec, USERS } from './helpers.js';

/** Every way a secret could sit in a log line: as is, base64, percent-encoded, or as bytes (a logged Buffer). */
function leaks(log: string, secret: string): boolean {
  const forms = [secret, Buffer.from(secret).toString('base64'), encodeURIComponent(secret), JSON.stringify(secret).slice(1, -1)];
  const bytes = [...log.matchAll(/\[(\d{1,3}(?:,\d{1,3}){3,})\]/g)].map((m) => Buffer.from(m[1]!.split(',').map(Number)).toString('latin1'));
  return [log, ...bytes].some((text) => forms.some((form) => text.includes(form)));
}

describe.each(['json', 'pretty'] as const)('logs at trace level, %s format', (format) => {
  const lines: string[] = [];
  let fake: Fake;
  let origin: string;
  /** Every credential the requests below carry. */
  const secrets: string[] = [];
  let credentials: { headers: string; query: string; loginBody: string };

  beforeAll(async () => {
    fake = await createFake({
      spec,
      docs: false,
      records: 20,
      logger: { level: 'trace', format, stream: { write: (line) => void lines.push(line) } },
      // Short, so that the slow requests below are refused while the test runs.
      connections: { headersTimeoutMs: 300, requestTimeoutMs: 600, checkIntervalMs: 50 },
    });
    ({ origin } = await fake.listen());
    const login = await rawRequest(origin, {
      method: 'POST',
      path: '/node/api/users/session',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: USERS.viewer.login, password: USERS.viewer.password }),
    });
    expectConforms('createSession', login as never);
    const cookies = ([] as string[]).concat(login.headers['set-cookie'] ?? []).map((c) => c.split(';', 1)[0]!);
    const admin = basic(USERS.admin.login, USERS.admin.password);
    const issued = await rawRequest(origin, { method: 'POST', path: `/node/api/users/${USERS.operator.id}/auth-token`, headers: { authorization: admin } });
    expectConforms('createAuthToken', issued as never);
    const token = JSON.parse(issued.body) as string;
    secrets.push(
      admin.slice('Basic '.length),
      `${USERS.admin.login}:${USERS.admin.password}`,
      USERS.admin.password,
      USERS.viewer.password,
      token,
      ...cookies.map((c) => c.slice(c.indexOf('=') + 1)),
    );
    credentials = {
      headers: `Authorization: ${admin}\r\nCookie: ${cookies.join('; ')}\r\n`,
      query: `?api-token=${token}`,
      loginBody: JSON.stringify({ login: USERS.admin.login, password: USERS.admin.password }),
    };
  });
  afterAll(() => fake.close());

  it('never hold a credential of any request, however the request was refused', async () => {
    const { headers, query, loginBody } = credentials;
    const login = (framing: string, body: string) => `POST /node/api/users/session${query} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}Content-Type: application/json\r\n${framing}\r\n${body}`;
    const refused = [
      `GET /node/api/users/current${query} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}X-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      `GET /node/api/users/current${query} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}Bad Header: y\r\n\r\n`,
      `G@T /node/api/users/current${query} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}\r\n`,
      login(`Content-Length: 5\r\nTransfer-Encoding: chunked\r\n`, `${loginBody.length.toString(16)}\r\n${loginBody}\r\n0\r\n\r\n`),
      login('Transfer-Encoding: chunked\r\n', `${loginBody.length.toString(16)}\r\n${loginBody}\r\nzz\r\n`),
      login(`Content-Length: ${loginBody.length + 1}\r\n`, `${loginBody.slice(0, -1)},}`),
      Buffer.concat([Buffer.from(login(`Content-Length: ${loginBody.length + 2}\r\n`, loginBody.slice(0, -2))), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]),
      `GET /node/api/users/current${query} HTTP/1.1\r\n${headers}Connection: close\r\n\r\n`,
      `GET /node/api/users/current${query} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}Expect: teapot\r\nConnection: close\r\n\r\n`,
      `GET /node/api/users/current${query} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}Connection: close\r\n\r\n`,
    ];
    for (const request of refused) expect((await exchange(origin, request)).answer).toBeDefined();

    // Too slow: headers that never end, and a body that never comes; both refused by the timeouts.
    for (const slow of [`GET /node/api/users/current${query} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}`, login(`Content-Length: ${loginBody.length}\r\n`, loginBody.slice(0, 20))]) {
      const { answer, closedByServer } = await exchange(origin, slow);
      expect(closedByServer).toBe(true);
      expect(expectError(answer as unknown as LightMyRequestResponse, 408, 'REQUEST_TIMEOUT').message).toBe('The request did not arrive in time.');
    }
    await fake.close();

    const log = lines.join('');
    // The log holds the refusals, so the absence of secrets below means something.
    expect(log.match(/refused a request the HTTP parser could not take/g)?.length).toBeGreaterThanOrEqual(7);
    // The line of a refused request, in either format.
    expect(log).toMatch(format === 'json' ? /"statusCode":401/ : /INFO: GET \/node\/api\/users\/current\?api-token=\[redacted\] 401 [\d.]+ ms\n/);
    expect(log).not.toContain('rawPacket');
    for (const secret of secrets) expect(leaks(log, secret), secret).toBe(false);
  });

});

describe('the leak check', () => {
  it('the check itself finds a secret in every form it may take', () => {
    const secret = 'admin:admin-password';
    for (const form of [secret, Buffer.from(secret).toString('base64'), encodeURIComponent(secret), JSON.stringify([...Buffer.from(`x ${secret} y`)])]) {
      expect(leaks(`{"msg":${JSON.stringify(form)}}`, secret), form).toBe(true);
    }
  });
});
