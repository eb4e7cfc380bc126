import { describe, expect, it } from 'vitest';
import type { BlockedRequest } from '../../src/spec/types.js';
import { BlockLogStore } from '../../src/store/rate-limiter.js';

const seed: BlockedRequest[] = [
  { uri: '/node/api/event-log', timestamp: 300, ttl: 30 },
  { ip: '198.51.100.23', timestamp: 100, ttl: 60 },
  { login: 'operator', user: '5867948233835d9661c56dca', uri: '/node/api/users/session', timestamp: 200, ttl: 300 },
  { ip: '', login: 'viewer', timestamp: 200, ttl: 60 },
  { user: '5867948233835d9661c56dcb', timestamp: 400, ttl: 900 },
];

describe('BlockLogStore', () => {
  it('lists records oldest first, equal timestamps in the order added', () => {
    const store = new BlockLogStore(seed);
    expect(store.query().map((b) => b.timestamp)).toEqual([100, 200, 200, 300, 400]);
    expect(store.query()[1]?.login).toBe('operator');
  });

  it('filters by inclusive time bounds, keeps only non-empty fields asked for, then skips and limits', () => {
    const store = new BlockLogStore(seed);
    expect(store.query({ from: 200, to: 300 }).map((b) => b.timestamp)).toEqual([200, 200, 300]);
    expect(store.query({ ip: true })).toEqual([seed[1]]);
    expect(store.query({ login: true }).map((b) => b.login)).toEqual(['operator', 'viewer']);
    expect(store.query({ login: true, uri: true })).toEqual([seed[2]]);
    expect(store.query({ user: true, ip: false }).map((b) => b.timestamp)).toEqual([200, 400]);
    expect(store.query({ skip: 1, limit: 2 }).map((b) => b.timestamp)).toEqual([200, 200]);
    expect(store.query({ limit: 0 })).toEqual([]);
  });

  it('adds copies in time order, clears, snapshots, restores and resets', () => {
    const store = new BlockLogStore(seed);
    const added: BlockedRequest = { ip: '203.0.113.9', timestamp: 250, ttl: 60 };
    store.add(added);
    added.ip = 'changed';
    expect(store.query({ from: 250, to: 250 })).toEqual([{ ip: '203.0.113.9', timestamp: 250, ttl: 60 }]);
    const saved = store.snapshot();
    store.clear();
    expect(store.size).toBe(0);
    store.restore(saved);
    expect(store.size).toBe(6);
    store.reset();
    expect(store.query()).toEqual(new BlockLogStore(seed).query());
    expect(() => {
      (store.query()[0] as { ttl: number }).ttl = 1;
    }).toThrow(TypeError);
  });

  it('keeps at most maxRecords, dropping the oldest', () => {
    const store = new BlockLogStore([], { maxRecords: 3 });
    for (let t = 1; t <= 5; t++) store.add({ ip: `10.0.0.${t}`, timestamp: t, ttl: 1 });
    expect(store.query().map((b) => b.timestamp)).toEqual([3, 4, 5]);
    // One older than every record kept is the one dropped.
    store.add({ ip: '10.0.0.9', timestamp: 0, ttl: 1 });
    expect(store.query().map((b) => b.timestamp)).toEqual([3, 4, 5]);
    for (let t = 6; t <= 20; t++) store.add({ ip: `10.0.0.${t}`, timestamp: t, ttl: 1 });
    expect(store.size).toBe(3);
    expect(store.query().map((b) => b.timestamp)).toEqual([18, 19, 20]);
    expect(store.snapshot().map((b) => b.timestamp)).toEqual([18, 19, 20]);
    expect(store.query({ skip: 1, limit: 1 }).map((b) => b.timestamp)).toEqual([19]);
    expect(store.clear()).toBe(3);
  });
});
