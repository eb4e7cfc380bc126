// Servers that never answer, or trickle a body a byte at a time: every request has an overall
// deadline, the run has --max-duration, and a server that stops answering ends the run with exit 2.
import { afterEach, describe, expect, it } from 'vitest';
import { check, hostileServer, trickle, type HostileServer } from './hostile-server.js';

let server: HostileServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('the runner against servers that hang', () => {
  it('a body trickled a byte at a time ends at the request deadline; a few in a row stop the run', async () => {
    server = await hostileServer((_req, res) => trickle(res, 100));
    const { code, stderr, stdout } = await check({ baseUrl: server.url, timeout: 1000 });
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^monitoring-api-kit check: stopped: 5 requests in a row got no answer from http:\/\/127\.0\.0\.1:\d+ \(the last, \w+: timed out: no complete answer within the request deadline of 1000 ms\)\n$/);
    expect(server.requests()).toBe(5);
  }, 60_000);

  it('a server that never answers costs a few request deadlines, not one per operation, and exits 2', async () => {
    server = await hostileServer(() => undefined);
    const { code, stderr } = await check({ baseUrl: server.url, timeout: 300 });
    expect(code).toBe(2);
    expect(stderr).toMatch(/^monitoring-api-kit check: stopped: 5 requests in a row got no answer/);
    expect(server.requests()).toBe(5);
  }, 90_000);

  it('--max-duration ends the request in flight and the run', async () => {
    server = await hostileServer((_req, res) => trickle(res, 100));
    const { code, stderr } = await check({ baseUrl: server.url, timeout: 600_000, maxDuration: 2 });
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^monitoring-api-kit check: stopped after 2 s \(--max-duration\) during getCurrentUser/);
  }, 60_000);
});
