import type { Spec } from '../spec/index.js';
import type { RateLimitRule, RateLimitSettings } from '../spec/control-types.js';

export type RateLimitPresetName = 'lenient' | 'strict';

/** A rate-limit setting as options and flags give it: a preset, `off`, or rules. */
export type RateLimitChoice = RateLimitPresetName | 'off' | readonly RateLimitRule[];

/** The presets' rules, read from the control API document (`RateLimitPreset.x-preset-rules`). */
export function presetRules(controlSpec: Spec): Readonly<Record<RateLimitPresetName, readonly RateLimitRule[]>> {
  const preset = controlSpec.document.components?.schemas?.RateLimitPreset as { 'x-preset-rules'?: unknown } | undefined;
  const rules = preset?.['x-preset-rules'] as Record<RateLimitPresetName, RateLimitRule[]> | undefined;
  if (!rules?.lenient || !rules.strict) throw new Error('The control API document has no x-preset-rules for lenient and strict.');
  return rules;
}

/** The settings a choice stands for: a preset with its rules, or `custom` rules (none for `off`). */
export function rateLimitSettings(choice: RateLimitChoice, presets: ReturnType<typeof presetRules>): RateLimitSettings {
  if (choice === 'off') return { preset: 'custom', rules: [] };
  if (typeof choice === 'string') {
    const rules = presets[choice];
    if (!rules) throw new Error(`Unknown rate-limit preset "${choice}"; use lenient, strict or off.`);
    return { preset: choice, rules: rules.map((r) => ({ ...r })) };
  }
  return { preset: 'custom', rules: choice.map((r) => ({ ...r })) };
}
