import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { controlApiPath, createSpecValidator, loadSpec, type Schema, type SpecValidator } from '../../src/spec/index.js';
import { parseRateLimitConfig, rateLimitPresets } from '../../src/store/rate-limit-rules.js';
import { createRateLimiter } from '../../src/store/rate-limiter.js';

describe('rate-limit rules of the control API document', () => {
  let validator: SpecValidator;
  let presetRules: Record<string, unknown[]>;
  beforeAll(async () => {
    const control = await loadSpec(controlApiPath);
    validator = createSpecValidator(control);
    presetRules = (control.document.components?.schemas?.RateLimitPreset as Schema & { 'x-preset-rules': Record<string, unknown[]> })['x-preset-rules'];
  });

  it('applies the presets exactly as the document writes them', () => {
    expect(rateLimitPresets()).toEqual(presetRules);
    for (const name of ['lenient', 'strict'] as const) {
      const settings = createRateLimiter({ rules: name }).settings();
      expect(settings).toEqual({ preset: name, rules: presetRules[name] });
      expect(validator.validateNamed('RateLimitSettings', settings)).toEqual([]);
    }
    expect(createRateLimiter().settings().preset).toBe('lenient');
  });

  it('reads configurations in the RateLimitUpdate shape and refuses bad ones, naming every problem', () => {
    const rule = { key: 'uri', limit: 5, windowSeconds: 1, blockSeconds: 2 };
    expect(parseRateLimitConfig({ preset: 'strict' })).toEqual({ ok: true, settings: { preset: 'strict', rules: presetRules.strict } });
    expect(parseRateLimitConfig({ rules: [rule] })).toEqual({ ok: true, settings: { preset: 'custom', rules: [rule] } });
    expect(parseRateLimitConfig({ rules: [] })).toEqual({ ok: true, settings: { preset: 'custom', rules: [] } });
    expect(parseRateLimitConfig({ preset: 'harsh' })).toEqual({ ok: false, problems: ['preset must be one of lenient, strict'] });
    expect(parseRateLimitConfig({ rules: [], limit: 1 })).toEqual({ ok: false, problems: ['unknown field "limit"; use "preset" or "rules"'] });
    expect(parseRateLimitConfig({ preset: 'strict', rules: [] })).toEqual({ ok: false, problems: ['give either "preset" or "rules", not both'] });
    expect(parseRateLimitConfig([rule])).toEqual({ ok: false, problems: ['must be an object with "preset" or "rules"'] });
    expect(parseRateLimitConfig({ rules: Array.from({ length: 21 }, () => rule) })).toEqual({ ok: false, problems: ['rules may hold at most 20 rules'] });
    expect(parseRateLimitConfig({ rules: [{ key: 'session', limit: 1.5, windowSeconds: 0, blockSeconds: 86_401, extra: true }, 'x'] })).toEqual({
      ok: false,
      problems: [
        'rules[0] has an unknown field "extra"',
        'rules[0].key must be one of ip, login, user, uri',
        'rules[0].limit must be an integer from 1 to 1000000',
        'rules[0].windowSeconds must be an integer from 1 to 86400',
        'rules[0].blockSeconds must be an integer from 1 to 86400',
        'rules[1] must be an object',
      ],
    });
  });

  it('accepts exactly what the document schema RateLimitUpdate accepts', () => {
    // Mostly valid fields, each sometimes just out of the document's bounds.
    const field = (max: number) =>
      fc.oneof(
        { arbitrary: fc.constantFrom(1, max, fc.sample(fc.integer({ min: 2, max: max - 1 }), 1)[0] as number), weight: 6 },
        { arbitrary: fc.constantFrom(0, max + 1), weight: 2 },
        { arbitrary: fc.constantFrom(-1, 1.5, '5', null), weight: 1 },
      );
    const rule = fc.record(
      {
        key: fc.oneof({ arbitrary: fc.constantFrom('ip', 'login', 'user', 'uri'), weight: 6 }, { arbitrary: fc.constant('session'), weight: 1 }),
        limit: field(1_000_000),
        windowSeconds: field(86_400),
        blockSeconds: field(86_400),
        extra: fc.constant(1),
      },
      { requiredKeys: ['key', 'limit', 'windowSeconds', 'blockSeconds'] },
    );
    const config = fc.oneof(
      fc.record({ preset: fc.constantFrom('lenient', 'strict', 'custom', 3) }),
      { arbitrary: fc.record({ rules: fc.array(rule, { minLength: 1, maxLength: 2 }) }), weight: 6 },
      fc.record({ rules: fc.array(fc.constant({ key: 'ip', limit: 1, windowSeconds: 1, blockSeconds: 1 }), { minLength: 19, maxLength: 22 }) }),
      fc.record({ rules: fc.array(rule, { maxLength: 2 }), preset: fc.constant('strict') }),
      fc.constantFrom(null, [], 'strict', {}),
    );
    fc.assert(
      fc.property(config, (c) => {
        const value = JSON.parse(JSON.stringify(c)) as unknown;
        expect(parseRateLimitConfig(value).ok, JSON.stringify(value)).toBe(validator.validateNamed('RateLimitUpdate', value).length === 0);
      }),
      { numRuns: 1000 },
    );
  });

  it('makes active blocks and block records in the documents shapes', async () => {
    const main = createSpecValidator(await loadSpec());
    const limiter = createRateLimiter({ rules: [{ key: 'user', limit: 1, windowSeconds: 60, blockSeconds: 60 }] });
    limiter.hit({ ip: '192.0.2.1', uri: '/node/api/event-log', user: '5867948233835d9661c56dc8', login: 'admin' });
    const decision = limiter.hit({ ip: '192.0.2.1', uri: '/node/api/event-log', user: '5867948233835d9661c56dc8', login: 'admin' });
    expect(decision.allowed).toBe(false);
    for (const b of decision.allowed ? [] : decision.newBlocks) expect(main.validateNamed('BlockedRequest', b)).toEqual([]);
    expect(limiter.activeBlocks()).toHaveLength(1);
    for (const b of limiter.activeBlocks()) expect(validator.validateNamed('ActiveBlock', b)).toEqual([]);
  });
});
