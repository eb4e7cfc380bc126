import type { RateLimitSettings } from '../spec/control-types.js';
import { rateLimitSettings, type RateLimitPreset, type RateLimitRule } from '../store/rate-limit-rules.js';

/** A rate-limit setting as options and flags give it: a preset of the control API document, `off`, or rules. */
export type RateLimitChoice = RateLimitPreset | 'off' | readonly RateLimitRule[];

/** The settings a choice stands for (`off` is no rules); throws with every problem. */
export function settingsOf(choice: RateLimitChoice): RateLimitSettings {
  const settings = rateLimitSettings(choice === 'off' ? [] : choice);
  return { preset: settings.preset, rules: settings.rules.map((r) => ({ ...r })) };
}
