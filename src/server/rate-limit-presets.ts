import type { RateLimitPreset, RateLimitRule, RateLimitSettings, RateLimitUpdate } from '../spec/control-types.js';
import { createSpecValidator, rateLimitPresets, type Spec } from '../spec/index.js';

/** A rate-limit setting as options and flags give it: a preset of the control API document, `off`, or rules. */
export type RateLimitChoice = RateLimitPreset | 'off' | readonly RateLimitRule[];

/** The settings of a RateLimitUpdate the control API document has validated (a control call's, a --rate-limit file's). */
export function settingsOfUpdate(update: RateLimitUpdate, controlSpec: Spec): RateLimitSettings {
  if ('preset' in update) return { preset: update.preset, rules: rateLimitPresets(controlSpec)[update.preset].map((r) => ({ ...r })) };
  return { preset: 'custom', rules: update.rules.map((r) => ({ ...r })) };
}

/**
 * The settings a choice of the options stands for (`off` is no rules). Options come from code,
 * so they are checked here, by the control API document; throws with every problem.
 */
export function settingsOf(choice: RateLimitChoice, controlSpec: Spec): RateLimitSettings {
  if (choice === 'off') return { preset: 'custom', rules: [] };
  if (typeof choice === 'string') {
    const presets = rateLimitPresets(controlSpec);
    if (!Object.hasOwn(presets, choice)) throw new Error(`Invalid rate limit preset "${choice}": use ${[...Object.keys(presets), 'off'].join(', ')} or rules`);
    return settingsOfUpdate({ preset: choice }, controlSpec);
  }
  const problems = createSpecValidator(controlSpec).validateNamed('RateLimitRules', choice);
  if (problems.length > 0) throw new Error(`Invalid rate limit rules: ${problems.map((p) => p.message).join('; ')}`);
  return settingsOfUpdate({ rules: [...choice] }, controlSpec);
}
