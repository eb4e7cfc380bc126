import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFake } from '../../src/server/build.js';
import { createManualClock } from '../../src/shared/clock.js';
import type { RawAnswer } from '../helpers/raw-http.js';
import { rawRequest } from '../helpers/raw-http.js';
import { exchange } from '../helpers/raw-socket.js';
import { startTarget, type Target } from './control/hostile-calls.js';
import { API, basic, basicOf, expectConforms, expectError, spec, USERS } from './helpers.js';

// An absolute-form request target (`GET http://host/path`, which proxies are sent) is routed by
// its path (RFC 9112 3.2.2): the checks that reason about paths read that path.

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

const answerOf = (answer: RawAnswer | undefined) => answer as unknown as LightMyRequestResponse;

describe('a Host header', () => {
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
