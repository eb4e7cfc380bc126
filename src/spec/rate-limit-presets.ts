import type { RateLimitPreset, RateLimitRule } from './control-types.js';
import type { Spec } from './load.js';
import { createSpecValidator } from './validator.js';

export type RateLimitPresets = Readonly<Record<RateLimitPreset, readonly RateLimitRule[]>>;

/** The rules of each RateLimitPreset, as its `x-preset-rules` gives them; another document's are checked here, the kit's own by npm test. */
export function rateLimitPresets(controlSpec: Spec): RateLimitPresets {
  const schema = controlSpec.document.components?.schemas?.RateLimitPreset as { enum?: string[]; 'x-preset-rules'?: Record<string, unknown> } | undefined;
  const validator = controlSpec.schemasChecked ? undefined : createSpecValidator(controlSpec);
  const found: Record<string, readonly RateLimitRule[]> = {};
  for (const name of schema?.enum ?? []) {
    const rules = schema?.['x-preset-rules']?.[name];
    const problems = validator?.validateNamed('RateLimitRules', rules) ?? [];
    if (problems.length > 0) throw new Error(`x-preset-rules of "${name}" are not usable: ${problems.map((p) => p.message).join('; ')}`);
    found[name] = Object.freeze((rules as RateLimitRule[]).map((r) => Object.freeze({ ...r })));
  }
  return Object.freeze(found as Record<RateLimitPreset, readonly RateLimitRule[]>);
}
