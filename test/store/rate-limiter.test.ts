import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../src/clock.js';
import { parseRateLimitConfig, RATE_LIMIT_PRESETS } from '../../src/store/rate-limit-rules.js';
import { createRateLimiter } from '../../src/store/rate-limiter.js';

const request = { ip: '198.51.100.23', uri: '/node/api/event-log' };

describe('createRateLimiter', () => {
  it('blocks a key that goes over its limit for blockSeconds, recording the block once', () => {
    const clock = createManualClock(1_000_000);
    const limiter = createRateLimiter({ clock, rules: [{ key: 'ip', limit: 3, windowSeconds: 10, blockSeconds: 60 }] });
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
    // The ttl is over: served again, with a fresh window.
    for (let i = 0; i < 3; i++) expect(limiter.hit(request)).toEqual({ allowed: true });
    expect(limiter.hit(request)).toMatchObject({ allowed: false, newBlocks: [{ ip: '198.51.100.23', timestamp: 1_060_000, ttl: 60 }] });
  });

  it('counts in fixed windows that open at the first request of a key', () => {
    const clock = createManualClock(0);
    const limiter = createRateLimiter({ clock, rules: [{ key: 'ip', limit: 2, windowSeconds: 10, blockSeconds: 5 }] });
    expect(limiter.hit(request).allowed).toBe(true);
    clock.advance(9_999);
    expect(limiter.hit(request).allowed).toBe(true);
    clock.advance(1); // a new window
    expect(limiter.hit(request).allowed).toBe(true);
    expect(limiter.hit(request).allowed).toBe(true);
    expect(limiter.hit(request).allowed).toBe(false);
  });

  it('keeps separate counts per key field, skips absent fields, and refuses while any key is blocked', () => {
    const clock = createManualClock(0);
    const limiter = createRateLimiter({
      clock,
      rules: [
        { key: 'login', limit: 1, windowSeconds: 10, blockSeconds: 30 },
        { key: 'uri', limit: 100, windowSeconds: 10, blockSeconds: 30 },
      ],
    });
    expect(limiter.hit({ ...request, login: 'operator' }).allowed).toBe(true);
    expect(limiter.hit(request).allowed).toBe(true); // no login: not counted for login
    expect(limiter.hit({ ...request, login: '' }).allowed).toBe(true);
    const blocked = limiter.hit({ ...request, ip: '203.0.113.1', login: 'operator' });
    expect(blocked).toEqual({ allowed: false, retryAfterSeconds: 30, newBlocks: [{ login: 'operator', timestamp: 0, ttl: 30 }] });
    expect(limiter.hit({ ip: '203.0.113.2', uri: '/other', login: 'operator' })).toEqual({ allowed: false, retryAfterSeconds: 30, newBlocks: [] });
    expect(limiter.hit({ ...request, login: 'viewer' }).allowed).toBe(true);
  });

  it('records one block when two rules on the same key trip together, with the longer ttl', () => {
    const limiter = createRateLimiter({
      clock: createManualClock(5),
      rules: [
        { key: 'ip', limit: 1, windowSeconds: 10, blockSeconds: 10 },
        { key: 'ip', limit: 1, windowSeconds: 60, blockSeconds: 120 },
        { key: 'uri', limit: 1, windowSeconds: 60, blockSeconds: 20 },
      ],
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

  it('stays bounded however many keys it sees', () => {
    const clock = createManualClock(0);
    const limiter = createRateLimiter({ clock, maxTrackedKeys: 100, rules: [{ key: 'ip', limit: 1, windowSeconds: 60, blockSeconds: 600 }] });
    for (let i = 0; i < 1000; i++) {
      const ip = `10.0.${i >> 8}.${i & 255}`;
      limiter.hit({ ip, uri: '/' });
      limiter.hit({ ip, uri: '/' });
      expect(limiter.tracked().windows).toBeLessThanOrEqual(100);
      expect(limiter.tracked().blocks).toBeLessThanOrEqual(100);
    }
    expect(limiter.tracked().blocks).toBeGreaterThan(0);
    limiter.reset();
    expect(limiter.tracked()).toEqual({ windows: 0, blocks: 0 });
  });

  it('forgets expired windows and blocks as it goes', () => {
    const clock = createManualClock(0);
    const limiter = createRateLimiter({ clock, rules: [{ key: 'ip', limit: 1, windowSeconds: 60, blockSeconds: 600 }] });
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

  it('uses the lenient preset by default and takes a preset name', () => {
    expect(createRateLimiter().rules).toEqual(RATE_LIMIT_PRESETS.lenient);
    expect(createRateLimiter({ rules: 'strict' }).rules).toEqual(RATE_LIMIT_PRESETS.strict);
    expect(() => createRateLimiter({ rules: [{ key: 'ip', limit: 0, windowSeconds: 1, blockSeconds: 1 }] })).toThrow(
      'Invalid rate limit rules: rules[0].limit must be an integer from 1 to 1000000000',
    );
  });

  it('lets normal development through on the lenient preset', () => {
    const clock = createManualClock(0);
    const limiter = createRateLimiter({ clock });
    // A busy UI: 50 requests a second for a minute, from one address and user.
    for (let i = 0; i < 3000; i++) {
      expect(limiter.hit({ ...request, login: 'admin', user: 'u1' }).allowed).toBe(true);
      clock.advance(20);
    }
  });
});

describe('parseRateLimitConfig', () => {
  it('reads presets and rules in the accepted shapes', () => {
    const rule = { key: 'uri', limit: 5, windowSeconds: 1, blockSeconds: 2 };
    expect(parseRateLimitConfig('strict')).toEqual({ ok: true, rules: RATE_LIMIT_PRESETS.strict });
    expect(parseRateLimitConfig({ preset: 'lenient' })).toEqual({ ok: true, rules: RATE_LIMIT_PRESETS.lenient });
    expect(parseRateLimitConfig({ rules: [rule] })).toEqual({ ok: true, rules: [rule] });
    expect(parseRateLimitConfig([rule])).toEqual({ ok: true, rules: [rule] });
    expect(parseRateLimitConfig([])).toEqual({ ok: true, rules: [] });
  });

  it('refuses bad configurations, naming every problem', () => {
    expect(parseRateLimitConfig('harsh')).toEqual({ ok: false, problems: ['preset must be one of lenient, strict'] });
    expect(parseRateLimitConfig({ rules: [], limit: 1 })).toEqual({ ok: false, problems: ['unknown field "limit"; use "preset" or "rules"'] });
    expect(parseRateLimitConfig({ preset: 'strict', rules: [] })).toEqual({ ok: false, problems: ['give either "preset" or "rules", not both'] });
    expect(parseRateLimitConfig(42)).toEqual({ ok: false, problems: ['rules must be an array of {key, limit, windowSeconds, blockSeconds}'] });
    expect(
      parseRateLimitConfig([
        { key: 'session', limit: 1.5, windowSeconds: 0, blockSeconds: 86_401, extra: true },
        'x',
      ]),
    ).toEqual({
      ok: false,
      problems: [
        'rules[0] has an unknown field "extra"',
        'rules[0].key must be one of ip, login, user, uri',
        'rules[0].limit must be an integer from 1 to 1000000000',
        'rules[0].windowSeconds must be an integer from 1 to 86400',
        'rules[0].blockSeconds must be an integer from 1 to 86400',
        'rules[1] must be an object',
      ],
    });
  });
});
