import { beforeAll, describe, expect, it } from 'vitest';
import { buildFake } from '../../src/server/build.js';
import { settingsOf } from '../../src/server/options.js';
import { controlApiPath, createSpecValidator, loadSpec, rateLimitPresets, type Schema, type Spec, type SpecValidator } from '../../src/spec/index.js';
import { createRateLimiter } from '../../src/store/rate-limiter.js';

describe('rate-limit rules of the control API document', () => {
  let control: Spec;
  let validator: SpecValidator;
  let presetRules: Record<string, unknown[]>;
  beforeAll(async () => {
    control = await loadSpec(controlApiPath);
    validator = createSpecValidator(control);
    presetRules = (control.document.components?.schemas?.RateLimitPreset as Schema & { 'x-preset-rules': Record<string, unknown[]> })['x-preset-rules'];
  });

  it('applies the presets exactly as the document writes them', () => {
    expect(rateLimitPresets(control)).toEqual(presetRules);
    for (const name of ['lenient', 'strict'] as const) {
      const settings = createRateLimiter({ rules: settingsOf(name, control) }).settings();
      expect(settings).toEqual({ preset: name, rules: presetRules[name] });
      expect(validator.validateNamed('RateLimitSettings', settings)).toEqual([]);
    }
  });

  it("refuses another document's presets that break its RateLimitRules schema", () => {
    const document = structuredClone(control.document);
    const preset = document.components?.schemas?.RateLimitPreset as { 'x-preset-rules': Record<string, unknown[]> };
    preset['x-preset-rules'].strict = [{ key: 'ip', limit: 0, windowSeconds: 1, blockSeconds: 1 }];
    expect(() => rateLimitPresets({ ...control, document, schemasChecked: false })).toThrow('x-preset-rules of "strict" are not usable: /0/limit must be >= 1');
  });

  it('refuses rules and presets of the options that the document refuses, naming every problem', () => {
    const rule = { key: 'uri', limit: 5, windowSeconds: 1, blockSeconds: 2 } as const;
    expect(settingsOf('strict', control)).toEqual({ preset: 'strict', rules: presetRules.strict });
    expect(settingsOf([rule], control)).toEqual({ preset: 'custom', rules: [rule] });
    expect(settingsOf([], control)).toEqual({ preset: 'custom', rules: [] });
    expect(settingsOf('off', control)).toEqual({ preset: 'custom', rules: [] });
    expect(() => settingsOf('harsh' as never, control)).toThrow('Invalid rate limit preset "harsh": use lenient, strict, off or rules');
    expect(() => settingsOf(Array.from({ length: 21 }, () => rule), control)).toThrow('Invalid rate limit rules: (root) must NOT have more than 20 items');
    expect(() => settingsOf([{ key: 'session', limit: 1.5, windowSeconds: 0, blockSeconds: 86_401, extra: true }, 'x'] as never, control)).toThrow(
      'Invalid rate limit rules: /0 must NOT have additional properties; /0/key must be equal to one of the allowed values; /0/limit must be integer; ' +
        '/0/windowSeconds must be >= 1; /0/blockSeconds must be <= 86400; /1 must be object',
    );
  });

  it('limits the fake by the lenient preset unless told otherwise', async () => {
    const app = await buildFake({ docs: false, records: 0 });
    expect(app.fake.state.data.limiter.settings()).toEqual({ preset: 'lenient', rules: presetRules.lenient });
    await app.close();
  });
});
