// A block (429) outside the rate-limit probe is not a finding: short ones are waited out, long ones stop the run.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlockedError } from '../../src/contract/errors.js';
import { runContract } from '../../src/contract/run/run-contract.js';
import { json, startBreakingProxy } from './broken/breaking-proxy.js';
import { ADMIN, listeningFake, type ListeningFake } from './helpers/fake.js';

let fake: ListeningFake;
beforeAll(async () => {
  fake = await listeningFake();
});
afterAll(() => fake.close());

const blocked = (seconds: number) => ({ ...json(429, { status: 429, code: 'RATE_LIMITED', message: 'Too many requests.' }), headers: { 'content-type': 'application/json', 'retry-after': String(seconds) } });

describe('blocks during a run', () => {
  it('waits out a short block (Retry-After within --max-wait) and goes on', async () => {
    let blocks = 2;
    const proxy = await startBreakingProxy(fake.url, { request: (r) => (r.url.pathname === '/node/api/event-log' && blocks-- > 0 ? blocked(2) : r) });
    const waits: number[] = [];
    try {
      const result = await runContract({ baseUrl: proxy.url, admin: ADMIN, seed: 1, groups: ['event-log'], maxWaitMs: 5000, sleep: async (ms) => void waits.push(ms) });
      expect(waits).toEqual([2000, 2000]);
      expect(result.violations).toBe(0);
    } finally {
      await proxy.close();
    }
  });

  it('stops the run with a clear error when the block is longer than it may wait', async () => {
    const proxy = await startBreakingProxy(fake.url, { request: (r) => (r.url.pathname === '/node/api/event-log' ? blocked(300) : r) });
    try {
      const run = runContract({ baseUrl: proxy.url, admin: ADMIN, seed: 1, groups: ['event-log'], maxWaitMs: 30_000, sleep: async () => undefined });
      await expect(run).rejects.toThrow(BlockedError);
      await expect(run).rejects.toThrow(/blocked the run \(429 on getEventLog, Retry-After 300 s/);
    } finally {
      await proxy.close();
    }
  });
});
