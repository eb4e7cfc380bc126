// A server that answers 429 with Retry-After 0, a negative or a long one: the runner waits a
// bounded time, then stops with exit 2 and one line; it never retries without end.
import { afterEach, describe, expect, it } from 'vitest';
import { check, hostileServer, json, type HostileServer } from './hostile-server.js';

let server: HostileServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const blocked = { status: 429, code: 'RATE_LIMITED', message: 'Too many requests.' };

describe('the runner against endless blocks', () => {
  it.each(['0', '-5', 'soon'])('Retry-After %s: a few waited retries, then exit 2 with one clear line', async (after) => {
    server = await hostileServer((_req, res) => json(res, 429, blocked, { 'retry-after': after }));
    const { code, stderr, stdout } = await check({ baseUrl: server.url, maxWait: 2 });
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^monitoring-api-kit check: http:\/\/127\.0\.0\.1:\d+ blocked the run \(429 on getCurrentUser/);
    // Each retry waits at least a second, so --max-wait 2 allows two of them.
    expect(server.requests()).toBeLessThanOrEqual(3);
  }, 30_000);

  it('gives up after a bounded number of retries even when --max-wait would allow more', async () => {
    server = await hostileServer((_req, res) => json(res, 429, blocked, { 'retry-after': '0' }));
    const { code, stderr } = await check({ baseUrl: server.url, maxWait: 3600 });
    expect(code).toBe(2);
    expect(stderr).toMatch(/blocked the run \(429 on getCurrentUser.*retries/);
    expect(server.requests()).toBeLessThanOrEqual(6);
  }, 60_000);

  it('a long Retry-After does not outlast --max-duration', async () => {
    server = await hostileServer((_req, res) => json(res, 429, blocked, { 'retry-after': '50' }));
    const { code, stderr } = await check({ baseUrl: server.url, maxWait: 3600, maxDuration: 2 });
    expect(code).toBe(2);
    expect(stderr).toMatch(/^monitoring-api-kit check: stopped after 2 s \(--max-duration\)/);
  }, 30_000);
});
