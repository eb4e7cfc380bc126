import { createHook } from 'node:async_hooks';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFake, type FakeApp } from '../../src/server/build.js';
import { createManualClock } from '../../src/shared/clock.js';
import type { RawAnswer } from '../helpers/raw-http.js';
import { openSocket, parseAnswer } from '../helpers/raw-socket.js';
import { API, basicOf, expectConforms, spec } from './helpers.js';

// A client over a rate limit gets 429 for every request it sends while blocked: a flood of them
// must cost the fake less than answering, not more. A refusal was a new error, message and JSON
// text, a throw, and an error handler whose promise resolved to the reply (two promises and
// their jobs a refusal); it is now answered as a served request is, at once.

const START = 1_800_000_000_000;
const clock = createManualClock(START);
const SECONDS = 300;
let app: FakeApp;
let origin: string;
beforeAll(async () => {
  app = await buildFake({ spec, clock, docs: false, records: 20, rateLimit: ['ip', 'login', 'user'].map((key) => ({ key, limit: 5, windowSeconds: 10, blockSeconds: SECONDS })) as never });
  await app.listen({ host: '127.0.0.1', port: 0 });
  origin = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
});
afterAll(() => app.close());

const REQUEST = `GET ${API}/users/current HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${basicOf('viewer').authorization}\r\n\r\n`;

/** The answers, in order, of `count` requests sent at once on one connection, and the promises made meanwhile in this process. */
async function burst(count: number): Promise<{ answers: RawAnswer[]; promises: number }> {
  const socket = await openSocket(origin);
  let promises = 0;
  const hook = createHook({
    init(_id, type) {
      if (type === 'PROMISE') promises++;
    },
  });
  const answers: RawAnswer[] = [];
  const done = new Promise<void>((resolve, reject) => {
    let pending = Buffer.alloc(0);
    socket.on('error', reject);
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        const end = pending.indexOf('\r\n\r\n');
        const length = end < 0 ? NaN : Number(/\r\ncontent-length: *(\d+)/i.exec(pending.subarray(0, end).toString('latin1'))?.[1]);
        if (Number.isNaN(length) || pending.length < end + 4 + length) break;
        answers.push(parseAnswer(pending.subarray(0, end + 4 + length))!);
        pending = pending.subarray(end + 4 + length);
      }
      if (answers.length === count) resolve();
    });
  });
  hook.enable();
  socket.write(REQUEST.repeat(count));
  await done;
  hook.disable();
  socket.destroy();
  return { answers, promises };
}

const blockLog = async () => {
  const response = await app.inject({ url: `${API}/limit-block-log?from=${START}`, headers: basicOf('admin'), remoteAddress: '192.0.2.200' });
  expectConforms('getLimitBlockLog', response);
  return JSON.parse(response.body) as unknown[];
};

describe('a flood of rate-limited requests', () => {
  it('is refused with the document 429 each time, makes no promise a refusal, and adds nothing to the block log', async () => {
    const first = await burst(10);
    expect(first.answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200, 200, 200, 429, 429, 429, 429, 429]);
    const blocks = await blockLog();
    expect(blocks).toEqual([
      { ip: '127.0.0.1', timestamp: START, ttl: SECONDS },
      { login: 'viewer', timestamp: START, ttl: SECONDS },
    ]);

    const flood = await burst(400);
    for (const answer of flood.answers) {
      expect(answer.statusCode).toBe(429);
      expect(answer.headers['retry-after']).toBe(String(SECONDS));
      expect(JSON.parse(answer.body)).toEqual({ status: 429, code: 'RATE_LIMITED', message: `Too many requests; blocked for ${SECONDS} seconds.` });
    }
    expectConforms('getCurrentUser', flood.answers[0] as unknown as LightMyRequestResponse);
    // Two a refusal before (800 here); the few left are the test's own.
    expect(flood.promises).toBeLessThan(40);
    expect(await blockLog()).toEqual(blocks);

    // Each Retry-After its own message, as the block runs down.
    clock.advance(100_500);
    const later = await burst(2);
    for (const answer of later.answers) {
      expect(answer.headers['retry-after']).toBe('200');
      expect(JSON.parse(answer.body).message).toBe('Too many requests; blocked for 200 seconds.');
    }
  });
});
