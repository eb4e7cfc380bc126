import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFake } from '../../src/fake/create-fake.js';
import { buildFake } from '../../src/server/build.js';
import { createManualClock } from '../../src/shared/clock.js';
import type { RawAnswer } from '../helpers/raw-http.js';
import { rawRequest } from '../helpers/raw-http.js';
import { exchange } from '../helpers/raw-socket.js';
import { expectRefused, jsonOf, startTarget, type ControlCall, type Target } from './control/hostile-calls.js';
import { API, basic, basicOf, expectConforms, expectError, spec, USERS } from './helpers.js';

// HTTP/1.1 lets a request name its host twice: in the Host header and, in the absolute form of
// the request target (`GET http://host/path`, which proxies are sent), in the target itself; the
// target then wins (RFC 9112 3.2.2). And a request may carry at most one Host header (3.2).
// The Host guards (DNS rebinding, the control API's) must judge the host the request names.

const WRONG_HOST = 'The control API answers only requests whose Host names this server.';
const ADMIN = basic(USERS.admin.login, USERS.admin.password);

let target: Target;
let origin: string;
let port: string;
beforeAll(async () => {
  target = await startTarget();
  ({ origin } = target);
  port = new URL(origin).port;
});
afterAll(() => target.fake.close());

const send = (call: ControlCall, path: string, headers: Record<string, string>) => {
  const json = jsonOf(call);
  return rawRequest(origin, { method: call.method, path, headers: { ...headers, ...json.headers }, body: json.body });
};
const answerOf = (answer: RawAnswer | undefined) => answer as unknown as LightMyRequestResponse;

describe('an absolute-form request target', () => {
  it('naming another host is refused every control operation, whatever the Host header says, and changes nothing', async () => {
    for (const call of target.calls) {
      for (const scheme of ['http', 'https', 'HTTP']) {
        const path = `${scheme}://evil.example:${port}${call.path}`;
        expectRefused(call, path, await send(call, path, { host: `127.0.0.1:${port}` }), WRONG_HOST);
      }
    }
    await target.expectUnchanged();
  });

  it('naming another host is refused by the control API over HTTP/1.0 without Host too', async () => {
    const { answer } = await exchange(origin, `GET http://evil.example/__control/sessions HTTP/1.0\r\n\r\n`);
    expect(answerOf(answer).statusCode).toBe(403);
    expect(JSON.parse(answer!.body)).toEqual({ status: 403, code: 'PERMISSION_DENIED', message: WRONG_HOST });
  });

  it('naming a host the API does not answer gets the DNS-rebinding 403 naming it, whatever the Host header says', async () => {
    const answer = await rawRequest(origin, { path: `http://evil.example:${port}${API}/users/current`, headers: { host: `127.0.0.1:${port}`, authorization: ADMIN } });
    expect(answer.statusCode, answer.body).toBe(403);
    expectConforms('getCurrentUser', answerOf(answer));
    expect(JSON.parse(answer.body).message).toContain(`"evil.example:${port}"`);
  });

  it('naming this server is served, as the target names the host', async () => {
    const answer = await rawRequest(origin, { path: `http://127.0.0.1:${port}${API}/users/current`, headers: { host: `evil.example:${port}`, authorization: ADMIN } });
    expect(answer.statusCode, answer.body).toBe(200);
    expectConforms('getCurrentUser', answerOf(answer));
  });

  it('with user info (user:password@) is refused with 400 MALFORMED_REQUEST, and the password is in no answer, log line or journal entry', async () => {
    const lines: string[] = [];
    const fake = await createFake({ spec, docs: false, records: 20, logger: { level: 'info', format: 'json', stream: { write: (line) => void lines.push(line) } } });
    try {
      const { origin: fakeOrigin } = await fake.listen();
      const fakePort = new URL(fakeOrigin).port;
      const secret = USERS.admin.password;
      for (const path of [`${API}/nothing-here`, `${API}/users/current`, '/__control/sessions']) {
        const answer = await rawRequest(fakeOrigin, { path: `http://${USERS.admin.login}:${secret}@127.0.0.1:${fakePort}${path}`, headers: { host: `127.0.0.1:${fakePort}` } });
        const body = expectError(answerOf(answer), 400, 'MALFORMED_REQUEST');
        expect(body.message).toBe('The request target has user info (user:password@); credentials go in the Authorization header.');
        expect(JSON.stringify(answer)).not.toContain(secret);
      }
      const journal = await fake.requests();
      expect(journal.map((entry) => entry.url)).toEqual([
        `http://[redacted]@127.0.0.1:${fakePort}${API}/users/current`,
        `http://[redacted]@127.0.0.1:${fakePort}${API}/nothing-here`,
      ]);
      expect(JSON.stringify(journal)).not.toContain(secret);
      await fake.close();
      const log = lines.join('');
      // The refusals are logged, with the user info masked.
      expect(log.match(/"url":"http:\/\/\[redacted\]@127\.0\.0\.1:\d+\/[^"]*","remoteAddress":"127\.0\.0\.1"},"res":\{"statusCode":400\}/g)).toHaveLength(3);
      expect(log).not.toContain(secret);
    } finally {
      await fake.close();
    }
  });
});

describe('a Host header with user info', () => {
  it('is refused with 400 MALFORMED_REQUEST everywhere, the connection closed, and the password is in no answer, log line or journal entry', async () => {
    const lines: string[] = [];
    const fake = await createFake({ spec, records: 20, logger: { level: 'trace', format: 'json', stream: { write: (line) => void lines.push(line) } } });
    try {
      const { origin: fakeOrigin } = await fake.listen();
      const fakePort = new URL(fakeOrigin).port;
      const secret = USERS.admin.password;
      const hosts = [`${USERS.admin.login}:${secret}@127.0.0.1:${fakePort}`, `${secret}@localhost`, `localhost:${fakePort}@${secret}.example`];
      const requests = hosts.flatMap((host) => [
        ...[`${API}/users/current`, `${API}/nothing-here`, '/__control/sessions', '/docs', '/nowhere'].map((path) => `GET ${path} HTTP/1.1\r\nHost: ${host}\r\nAuthorization: ${ADMIN}\r\n\r\n`),
        // A target naming this server would stand for the Host; the Host as sent is refused all the same.
        `GET http://127.0.0.1:${fakePort}${API}/users/current HTTP/1.1\r\nHost: ${host}\r\nAuthorization: ${ADMIN}\r\n\r\n`,
        `GET ${API}/users/current HTTP/1.0\r\nHost: ${host}\r\nAuthorization: ${ADMIN}\r\n\r\n`,
        `OPTIONS ${API}/users/current HTTP/1.1\r\nHost: ${host}\r\nOrigin: http://localhost:5173\r\nAccess-Control-Request-Method: GET\r\n\r\n`,
      ]);
      for (const request of requests) {
        const { answer, closedByServer } = await exchange(fakeOrigin, request);
        expect(closedByServer, request).toBe(true);
        const body = expectError(answerOf(answer), 400, 'MALFORMED_REQUEST');
        expect(body.message).toBe('The Host header has user info (user:password@); credentials go in the Authorization header.');
        expect(JSON.stringify(answer)).not.toContain(secret);
      }
      const journal = await fake.requests();
      expect(journal.length).toBeGreaterThan(0);
      expect(journal.every((entry) => entry.status === 400)).toBe(true);
      expect(JSON.stringify(journal)).not.toContain(secret);
      await fake.close();
      const log = lines.join('');
      expect(log.match(/"res":\{"statusCode":400\}/g)).toHaveLength(requests.length);
      expect(log).not.toContain(secret);
    } finally {
      await fake.close();
    }
  });
});

describe('a target of another scheme', () => {
  it('with user info is refused as an http one is, and its password is in no answer', async () => {
    const secret = USERS.admin.password;
    for (const scheme of ['ftp', 'ws']) {
      const answer = await rawRequest(origin, { path: `${scheme}://${USERS.admin.login}:${secret}@127.0.0.1:${port}${API}/users/current`, headers: { host: `127.0.0.1:${port}` } });
      expectError(answerOf(answer), 400, 'MALFORMED_REQUEST');
      expect(JSON.stringify(answer)).not.toContain(secret);
    }
  });
});

describe('a repeated Host header', () => {
  const twice = (path: string, first: string, second: string) => `GET ${path} HTTP/1.1\r\nHost: ${first}\r\nHost: ${second}\r\nAuthorization: ${ADMIN}\r\n\r\n`;

  it('is 400 MALFORMED_REQUEST on the control API, the monitoring API and paths no route takes, whichever comes first', async () => {
    for (const path of ['/__control/sessions', `${API}/users/current`, '/nowhere']) {
      for (const [first, second] of [
        [`127.0.0.1:${port}`, 'evil.example'],
        ['evil.example', `127.0.0.1:${port}`],
        [`127.0.0.1:${port}`, `127.0.0.1:${port}`],
      ] as const) {
        const { answer, closedByServer } = await exchange(origin, twice(path, first, second));
        expect(closedByServer).toBe(true);
        const body = expectError(answerOf(answer), 400, 'MALFORMED_REQUEST');
        expect(body.message, `${path} ${first} ${second}`).toBe('An HTTP/1.1 request must have one Host header, not several.');
      }
    }
  });

  it('so is a repeated Authorization (a wrong second credential was ignored) or Content-Type header, and nothing is stored', async () => {
    const wrong = basic(USERS.admin.login, 'wrong-password');
    const logIn = JSON.stringify({ login: USERS.viewer.login, password: USERS.viewer.password });
    const requests: [string, string][] = [
      [`GET ${API}/users/current HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${ADMIN}\r\nAuthorization: ${wrong}\r\n\r\n`, 'Authorization'],
      [`GET ${API}/users/current HTTP/1.1\r\nHost: 127.0.0.1\r\nauthorization: ${ADMIN}\r\nAUTHORIZATION: ${ADMIN}\r\n\r\n`, 'Authorization'],
      [
        `POST ${API}/users/session HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Type: text/plain\r\nContent-Length: ${logIn.length}\r\n\r\n${logIn}`,
        'Content-Type',
      ],
    ];
    for (const [request, name] of requests) {
      const { answer, closedByServer } = await exchange(origin, request);
      expect(closedByServer).toBe(true);
      expect(expectError(answerOf(answer), 400, 'MALFORMED_REQUEST').message).toBe(`An HTTP/1.1 request must have one ${name} header, not several.`);
    }
    await target.expectUnchanged();
  });

  it('one Host header, in any case of its name, is served', async () => {
    const { answer } = await exchange(origin, `GET ${API}/users/current HTTP/1.1\r\nhOsT: 127.0.0.1:${port}\r\nAuthorization: ${ADMIN}\r\nConnection: close\r\n\r\n`);
    expect(answerOf(answer).statusCode, answer?.body).toBe(200);
    expectConforms('getCurrentUser', answerOf(answer));
  });
});

describe('the path of an absolute-form request target', () => {
  it('is the path the router took: in a 404, and for the per-URI rate limit, however the host is spelled', async () => {
    const START = 1_800_000_000_000;
    const app = await buildFake({ spec, docs: false, records: 20, clock: createManualClock(START), rateLimit: [{ key: 'uri', limit: 4, windowSeconds: 10, blockSeconds: 60 }] });
    try {
      await app.listen({ host: '127.0.0.1', port: 0 });
      const { port: appPort } = app.server.address() as { port: number };
      const appOrigin = `http://127.0.0.1:${appPort}`;
      const notFound = await rawRequest(appOrigin, { path: `http://127.0.0.1:${appPort}${API}/nothing-here?x=1`, headers: { host: `127.0.0.1:${appPort}` } });
      expect(expectError(answerOf(notFound), 404, 'ROUTE_NOT_FOUND').message).toBe(`No operation has the path "${API}/nothing-here".`);

      const hosts = ['127.0.0.1', `127.0.0.1:${appPort}`, 'localhost:1', 'LOCALHOST:2', '[::1]:3'];
      const statuses: number[] = [];
      for (const host of hosts) {
        const answer = await rawRequest(appOrigin, { path: `http://${host}${API}/users/current`, headers: { host: `127.0.0.1:${appPort}`, ...basicOf('viewer') } });
        expectConforms('getCurrentUser', answerOf(answer));
        statuses.push(answer.statusCode);
      }
      expect(statuses).toEqual([200, 200, 200, 200, 429]);
      const blocks = await app.inject({ url: `${API}/limit-block-log?from=${START}`, headers: basicOf('admin'), remoteAddress: '192.0.2.200' });
      expect(JSON.parse(blocks.body)).toEqual([{ uri: `${API}/users/current`, timestamp: START, ttl: 60 }]);
    } finally {
      await app.close();
    }
  });
});
