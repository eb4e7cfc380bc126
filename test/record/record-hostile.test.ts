// `record` against servers that block, drop connections, or page in ways that cannot be trusted:
// blocks are waited out within bounds, and a run that cannot finish exits 2 and writes nothing.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFake, type Fake } from '../../src/fake/create-fake.js';
import type { HostileServer } from '../contract/hostile/hostile-server.js';
import { json } from '../contract/hostile/hostile-server.js';
import { expectNothingWritten, readRecording, record, scratch } from './helpers.js';
import { miniServer, trap } from './mini-server.js';

let fake: Fake | undefined;
let server: HostileServer | undefined;
afterEach(async () => {
  await fake?.close();
  await server?.close();
  fake = undefined;
  server = undefined;
});

describe('record against a server that rate-limits hard', () => {
  it('waits out every 429 by its Retry-After and finishes with every record', async () => {
    fake = await createFake({ records: 200, rateLimit: [{ key: 'ip', limit: 4, windowSeconds: 1, blockSeconds: 1 }] });
    const { baseUrl } = await fake.listen();
    const before = (await fake.blocks()).log;
    const out = join(scratch(), 'limited');
    const { code, stderr, stdout } = await record({ baseUrl, out, pageSize: 25 });
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(/^blocked \(429 on get\w+, Retry-After 1\): waiting 1 s$/m);
    expect(stdout).toMatch(/^Recorded 20[0-9] event log records/m);
    await fake.setConfig({ rateLimit: { preset: 'lenient' } });
    const recording = readRecording(out);
    const all = (await fake.snapshot()).eventLog;
    expect(recording.events.map((r) => r._id)).toEqual(all.map((r) => r._id));
    // The blocks the run itself caused came after its upper bound: the block log is as it was.
    expect((await fake.blocks()).log.length).toBeGreaterThan(before.length);
    expect(recording.blocks).toEqual(before);
  }, 60_000);

  it('stops with exit 2 on a block longer than --max-wait, and writes nothing', async () => {
    fake = await createFake({ records: 200, rateLimit: [{ key: 'ip', limit: 3, windowSeconds: 60, blockSeconds: 120 }] });
    const { baseUrl } = await fake.listen();
    const parent = scratch();
    const out = join(parent, 'blocked');
    const { code, stderr, stdout } = await record({ baseUrl, out, pageSize: 25 });
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toMatch(/^monitoring-api-kit record: http:\/\/127\.0\.0\.1:\d+ blocked the run \(429 on getEventLog, Retry-After 120 s, more than --max-wait allows\): relax its limits or raise --max-wait; nothing was written$/m);
    expectNothingWritten(parent, out);
  });
});

describe('record against a server that drops connections', () => {
  it('tries a dropped page again a bounded number of times, then exits 2 and writes nothing', async () => {
    const events = Array.from({ length: 30 }, (_, i) => trap(i + 1, 1_756_000_000_000 + i * 1000));
    let dropped = 0;
    server = await miniServer({
      events,
      intercept: (req, _res, path) => {
        const query = new URL(req.url ?? '/', 'http://localhost').searchParams;
        if (path !== '/node/api/event-log' || query.get('sortDirection') !== 'asc' || query.get('skip') === '0') return false;
        dropped += 1;
        req.socket.destroy();
        return true;
      },
    });
    const parent = scratch();
    const out = join(parent, 'dropped');
    const { code, stderr, stdout } = await record({ baseUrl: server.url, out, pageSize: 10 });
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(dropped).toBe(3);
    expect(stderr).toMatch(/^no complete answer to getEventLog \(.+\): trying again in 1 s$/m);
    expect(stderr).toMatch(/^monitoring-api-kit record: stopped: getEventLog got no complete answer from http:\/\/127\.0\.0\.1:\d+ in 3 attempts \(the last: .+\); nothing was written$/m);
    expectNothingWritten(parent, out);
  }, 30_000);

  it('exits 2 when the server cannot be reached', async () => {
    server = await miniServer({ events: [] });
    const url = server.url;
    await server.close();
    server = undefined;
    const parent = scratch();
    const { code, stderr } = await record({ baseUrl: url, out: join(parent, 'x') });
    expect(code).toBe(2);
    expect(stderr).toMatch(/^monitoring-api-kit record: cannot reach http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED.*; nothing was written$/m);
    expectNothingWritten(parent, join(parent, 'x'));
  });
});

describe('record against a server whose pages cannot be trusted', () => {
  const tied = Array.from({ length: 30 }, (_, i) => trap(i + 1, 1_756_000_000_000));

  it('a server that ignores skip: exit 2, not an endless loop', async () => {
    server = await miniServer({
      events: tied,
      intercept: (req, res, path) => {
        const query = new URL(req.url ?? '/', 'http://localhost').searchParams;
        if (path !== '/node/api/event-log' || query.get('sortDirection') !== 'asc') return false;
        json(res, 200, tied.slice(0, Number(query.get('limit'))));
        return true;
      },
    });
    const parent = scratch();
    const { code, stderr } = await record({ baseUrl: server.url, out: join(parent, 'x'), pageSize: 10 });
    expect(code).toBe(2);
    expect(stderr).toMatch(/^monitoring-api-kit record: the same page came twice: the server ignores skip; nothing was written$/m);
    expectNothingWritten(parent, join(parent, 'x'));
  });

  it('a server that does not sort as asked: exit 2', async () => {
    const events = Array.from({ length: 5 }, (_, i) => trap(i + 1, 1_756_000_000_000 + i));
    server = await miniServer({
      events,
      intercept: (req, res, path) => {
        if (path !== '/node/api/event-log') return false;
        json(res, 200, [...events].reverse());
        return true;
      },
    });
    const parent = scratch();
    const { code, stderr } = await record({ baseUrl: server.url, out: join(parent, 'x') });
    expect(code).toBe(2);
    expect(stderr).toMatch(/does not sort ascending by timestamp; nothing was written$/m);
  });

  it('a page too large to read: exit 2 at once, no retry, nothing written', async () => {
    const huge = [trap(1, 1_756_000_000_000, 'x'.repeat(2 * 1024 * 1024))];
    let pages = 0;
    server = await miniServer({
      events: huge,
      intercept: (req, _res, path) => {
        if (path === '/node/api/event-log') pages += 1;
        return false;
      },
    });
    const parent = scratch();
    const { code, stderr } = await record({ baseUrl: server.url, out: join(parent, 'x'), pageSize: 10 });
    expect(code).toBe(2);
    expect(stderr).toMatch(/^monitoring-api-kit record: getEventLog answered 200, but the body is larger than 1048576 bytes and was cut off: ask for fewer records a page \(--page-size\); nothing was written$/m);
    expect(pages).toBe(1);
    expectNothingWritten(parent, join(parent, 'x'));
  });

  it('refused credentials: exit 2 with the status', async () => {
    server = await miniServer({ events: [], intercept: (req, res, path) => (path === '/node/api/users/current' ? (json(res, 401, { status: 401, code: 'UNAUTHENTICATED', message: 'no' }), true) : false) });
    const { code, stderr } = await record({ baseUrl: server.url, out: join(scratch(), 'x') });
    expect(code).toBe(2);
    expect(stderr).toMatch(/^monitoring-api-kit record: the credentials were refused \(401\) by http:\/\/127\.0\.0\.1:\d+; nothing was written$/m);
  });
});
