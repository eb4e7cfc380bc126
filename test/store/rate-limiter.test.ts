import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../src/shared/clock.js';
import { controlApiPath, createSpecValidator, loadSpec, rateLimitPresets } from '../../src/spec/index.js';
import { createRateLimiter } from '../../src/store/rate-limiter.js';

const control = await loadSpec(controlApiPath);
const presets = rateLimitPresets(control);
const strict = { preset: 'strict' as const, rules: [...presets.strict] };
const lenient = { preset: 'lenient' as const, rules: [...presets.lenient] };

const request = { ip: '198.51.100.23', uri: '/node/api/event-log' };
const ipRule = (limit: number, windowSeconds: number, blockSeconds: number) => ({ key: 'ip' as const, limit, windowSeconds, blockSeconds });

describe('createRateLimiter', () => {
  it('blocks a value that goes over its limit for blockSeconds, recording the block once', () => {
    const clock = createManualClock(1_000_000);
    const limiter = createRateLimiter({ clock, rules: [ipRule(3, 10, 60)] });
    for (let i = 0; i < 3; i++) expect(limiter.hit(request)).toEqual({ allowed: true });
    expect(limiter.hit(request)).toEqual({
      allowed: false,
      retryAfterSeconds: 60,
      newBlocks: [{ ip: '198.51.100.23', timestamp: 1_000_000, ttl: 60 }],
    });
    clock.advance(20_500);
    expect(limiter.hit(request)).toEqual({ allowed: false, retryAfterSeconds: 40, newBlocks: [] });
    expect(limiter.hit({ ...request, ip: '198.51.100.24' })).toEqual({ allowed: true });
    clock.advance(39_499);
    expect(limiter.hit(request)).toEqual({ allowed: false, retryAfterSeconds: 1, newBlocks: [] });
    clock.advance(1);
    // The ttl is over: served again, with a fresh window (refused requests were not counted).
    for (let i = 0; i < 3; i++) expect(limiter.hit(request)).toEqual({ allowed: true });
    expect(limiter.hit(request)).toMatchObject({ allowed: false, newBlocks: [{ ip: '198.51.100.23', timestamp: 1_060_000, ttl: 60 }] });
  });

  it('counts in fixed windows that open at the first request of a value', () => {
    const clock = createManualClock(0);
    const limiter = createRateLimiter({ clock, rules: [ipRule(2, 10, 5)] });
    expect(limiter.hit(request).allowed).toBe(true);
    clock.advance(9_999);
    expect(limiter.hit(request).allowed).toBe(true);
    clock.advance(1); // a new window
    expect(limiter.hit(request).allowed).toBe(true);
    expect(limiter.hit(request).allowed).toBe(true);
    expect(limiter.hit(request).allowed).toBe(false);
  });

  it('counts per key, skips absent keys, refuses while any key is blocked, and names the login of a blocked user', () => {
    const clock = createManualClock(0);
    const limiter = createRateLimiter({
      clock,
      rules: [
        { key: 'login', limit: 1, windowSeconds: 10, blockSeconds: 30 },
        { key: 'user', limit: 1, windowSeconds: 10, blockSeconds: 20 },
      ],
    });
    expect(limiter.hit({ ...request, login: 'operator' }).allowed).toBe(true);
    expect(limiter.hit(request).allowed).toBe(true); // no login: not counted
    expect(limiter.hit({ ...request, login: '' }).allowed).toBe(true);
    expect(limiter.hit({ ...request, ip: '203.0.113.1', login: 'operator' })).toEqual({
      allowed: false,
      retryAfterSeconds: 30,
      newBlocks: [{ login: 'operator', timestamp: 0, ttl: 30 }],
    });
    expect(limiter.hit({ ip: '203.0.113.2', uri: '/other', login: 'operator' })).toEqual({ allowed: false, retryAfterSeconds: 30, newBlocks: [] });
    expect(limiter.hit({ ...request, login: 'viewer', user: 'u1' }).allowed).toBe(true);
    expect(limiter.hit({ ...request, login: 'viewer2', user: 'u1' })).toEqual({
      allowed: false,
      retryAfterSeconds: 20,
      newBlocks: [{ user: 'u1', login: 'viewer2', timestamp: 0, ttl: 20 }],
    });
  });

  it('records one block per value when two rules trip together, with the longer ttl', () => {
    const limiter = createRateLimiter({
      clock: createManualClock(5),
      rules: [ipRule(1, 10, 10), ipRule(1, 60, 120), { key: 'uri', limit: 1, windowSeconds: 60, blockSeconds: 20 }],
    });
    limiter.hit(request);
    expect(limiter.hit(request)).toEqual({
      allowed: false,
      retryAfterSeconds: 120,
      newBlocks: [
        { ip: '198.51.100.23', timestamp: 5, ttl: 120 },
        { uri: '/node/api/event-log', timestamp: 5, ttl: 20 },
      ],
    });
  });

  it('lists, clears and restores active blocks', () => {
    const clock = createManualClock(1_000);
    const limiter = createRateLimiter({ clock, rules: [ipRule(1, 60, 60), { key: 'login', limit: 1, windowSeconds: 60, blockSeconds: 10 }] });
    limiter.hit({ ...request, login: 'a' });
    limiter.hit({ ...request, login: 'a' });
    clock.advance(2_000);
    expect(limiter.activeBlocks()).toEqual([
      { key: 'ip', value: '198.51.100.23', blockedAt: 1_000, expiresAt: 61_000 },
      { key: 'login', value: 'a', blockedAt: 1_000, expiresAt: 11_000 },
    ]);
    const saved = limiter.activeBlocks();
    clock.advance(10_000);
    expect(limiter.activeBlocks().map((b) => b.key)).toEqual(['ip']);
    expect(limiter.clear()).toBe(1);
    expect(limiter.activeBlocks()).toEqual([]);
    expect(limiter.hit(request).allowed).toBe(true);
    limiter.restoreActiveBlocks(saved); // the login block has expired by now and is dropped
    expect(limiter.activeBlocks()).toEqual([saved[0]]);
    expect(limiter.hit(request)).toEqual({ allowed: false, retryAfterSeconds: 48, newBlocks: [] });
    expect(limiter.hit({ ...request, ip: '10.0.0.1', login: 'a' }).allowed).toBe(true);
  });

  it('takes new rules: windows restart, blocks stay; reset goes back to the start-up rules', () => {
    const clock = createManualClock(0);
    const limiter = createRateLimiter({ clock, rules: strict });
    expect(limiter.settings().preset).toBe('strict');
    limiter.hit({ ...request, login: 'x' });
    const custom = [ipRule(1, 60, 60)];
    expect(limiter.setRules(custom)).toEqual({ preset: 'custom', rules: custom });
    expect(limiter.hit(request).allowed).toBe(true); // a fresh window under the new rule
    expect(limiter.hit(request).allowed).toBe(false);
    limiter.setRules(lenient);
    expect(limiter.settings().preset).toBe('lenient');
    expect(limiter.hit(request).allowed).toBe(false); // the block stays
    limiter.reset();
    expect(limiter.settings().preset).toBe('strict');
    expect(limiter.hit(request).allowed).toBe(true);
  });

  it('stays bounded however many values it sees', () => {
    const clock = createManualClock(0);
    const limiter = createRateLimiter({ clock, maxTrackedKeys: 100, rules: [ipRule(1, 60, 600)] });
    for (let i = 0; i < 1000; i++) {
      const ip = `10.0.${i >> 8}.${i & 255}`;
      limiter.hit({ ip, uri: '/' });
      limiter.hit({ ip, uri: '/' });
      expect(limiter.tracked().windows).toBeLessThanOrEqual(100);
      expect(limiter.tracked().blocks).toBeLessThanOrEqual(100);
    }
    expect(limiter.tracked().blocks).toBeGreaterThan(0);
  });

  it('stays bounded across several rules, counting each rule on its own', () => {
    const clock = createManualClock(0);
    const rules = [ipRule(2, 60, 600), { key: 'login', limit: 2, windowSeconds: 60, blockSeconds: 600 } as const];
    const limiter = createRateLimiter({ clock, maxTrackedKeys: 100, rules });
    for (let i = 0; i < 1000; i++) {
      limiter.hit({ ip: `10.4.${i >> 8}.${i & 255}`, uri: '/', login: `user-${i}` });
      expect(limiter.tracked().windows).toBeLessThanOrEqual(100);
    }
    // One value on two rules: its ip and its login are each counted once a request.
    const request = { ip: '10.5.0.1', uri: '/', login: 'someone' };
    expect(limiter.hit(request).allowed).toBe(true);
    expect(limiter.hit(request).allowed).toBe(true);
    expect(limiter.hit(request).allowed).toBe(false);
    expect(limiter.hit({ ...request, ip: '10.5.0.2' }).allowed).toBe(false); // the login is blocked
    expect(limiter.hit({ ...request, login: 'another' }).allowed).toBe(false); // and so is the ip
  });

  it('forgets expired windows and blocks as it goes', () => {
    const clock = createManualClock(0);
    const limiter = createRateLimiter({ clock, rules: [ipRule(1, 60, 600)] });
    for (let i = 0; i < 50; i++) {
      limiter.hit({ ip: `10.1.0.${i}`, uri: '/' });
      limiter.hit({ ip: `10.1.0.${i}`, uri: '/' }); // blocked
      limiter.hit({ ip: `10.2.0.${i}`, uri: '/' });
    }
    expect(limiter.tracked()).toEqual({ windows: 50, blocks: 50 });
    clock.advance(600_000);
    for (let i = 0; i < 1024; i++) limiter.hit({ ip: `10.3.${i >> 8}.${i & 255}`, uri: '/' });
    expect(limiter.tracked()).toEqual({ windows: 1024, blocks: 0 });
  });

  it('lets a UI in development through on the default (lenient) preset', () => {
    const clock = createManualClock(0);
    const limiter = createRateLimiter({ clock, rules: lenient });
    expect(limiter.settings().preset).toBe('lenient');
    // Log in once, then 5 requests a second for ten minutes with the session cookie.
    expect(limiter.hit({ ...request, uri: '/node/api/users/session', login: 'admin' }).allowed).toBe(true);
    for (let i = 0; i < 3000; i++) {
      expect(limiter.hit({ ...request, user: '5867948233835d9661c56dc8' }).allowed).toBe(true);
      clock.advance(200);
    }
  });

  it('makes active blocks and block records in the documents shapes', async () => {
    const main = createSpecValidator(await loadSpec());
    const limiter = createRateLimiter({ rules: [{ key: 'user', limit: 1, windowSeconds: 60, blockSeconds: 60 }] });
    limiter.hit({ ip: '192.0.2.1', uri: '/node/api/event-log', user: '5867948233835d9661c56dc8', login: 'admin' });
    const decision = limiter.hit({ ip: '192.0.2.1', uri: '/node/api/event-log', user: '5867948233835d9661c56dc8', login: 'admin' });
    expect(decision.allowed).toBe(false);
    for (const b of decision.allowed ? [] : decision.newBlocks) expect(main.validateNamed('BlockedRequest', b)).toEqual([]);
    expect(limiter.activeBlocks()).toHaveLength(1);
    for (const b of limiter.activeBlocks()) expect(createSpecValidator(control).validateNamed('ActiveBlock', b)).toEqual([]);
  });
});
