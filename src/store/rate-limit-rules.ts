import { readFileSync } from 'node:fs';
import { JSON_SCHEMA, load } from 'js-yaml';
import { controlApiPath } from '../spec/paths.js';

/**
 * Rate-limit rules as the control API document (`openapi/control-api.yaml`) defines them:
 * its RateLimitRule, RateLimitKey, RateLimitPreset (with `x-preset-rules`), RateLimitUpdate
 * and RateLimitSettings schemas. The presets are read from the document, not copied here.
 */

/** What a rule counts requests by; the name is also the field of the block record. */
export type RateLimitKey = 'ip' | 'login' | 'user' | 'uri';

/** At most `limit` requests per key value in a window of `windowSeconds`; one more blocks that value for `blockSeconds`. */
export interface RateLimitRule {
  readonly key: RateLimitKey;
  readonly limit: number;
  readonly windowSeconds: number;
  readonly blockSeconds: number;
}

export type RateLimitPreset = 'lenient' | 'strict';

/** The rules in force and where they come from (`custom` when given as rules). */
export interface RateLimitSettings {
  readonly preset: RateLimitPreset | 'custom';
  readonly rules: readonly RateLimitRule[];
}

export const RATE_LIMIT_KEYS: readonly RateLimitKey[] = ['ip', 'login', 'user', 'uri'];

/** The bounds of the document's RateLimitRule and RateLimitRules. */
const MAX = { limit: 1_000_000, windowSeconds: 86_400, blockSeconds: 86_400, rules: 20 } as const;
const RULE_FIELDS = ['key', 'limit', 'windowSeconds', 'blockSeconds'];

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

export type RateLimitConfigResult = { readonly ok: true; readonly settings: RateLimitSettings } | { readonly ok: false; readonly problems: string[] };

/** Checks a list of rules; every problem names where it is, e.g. `rules[1].limit must be ...`. */
export function rulesProblems(rules: unknown): string[] {
  if (!Array.isArray(rules)) return ['rules must be an array of {key, limit, windowSeconds, blockSeconds}'];
  const problems: string[] = rules.length > MAX.rules ? [`rules may hold at most ${MAX.rules} rules`] : [];
  rules.forEach((rule: unknown, i) => {
    const at = `rules[${i}]`;
    if (!isObject(rule)) {
      problems.push(`${at} must be an object`);
      return;
    }
    for (const k of Object.keys(rule)) if (!RULE_FIELDS.includes(k)) problems.push(`${at} has an unknown field "${k}"`);
    if (!RATE_LIMIT_KEYS.includes(rule.key as RateLimitKey)) problems.push(`${at}.key must be one of ${RATE_LIMIT_KEYS.join(', ')}`);
    for (const field of ['limit', 'windowSeconds', 'blockSeconds'] as const) {
      const v = rule[field];
      if (!Number.isSafeInteger(v) || (v as number) < 1 || (v as number) > MAX[field]) problems.push(`${at}.${field} must be an integer from 1 to ${MAX[field]}`);
    }
  });
  return problems;
}

let presets: Readonly<Record<RateLimitPreset, readonly RateLimitRule[]>> | undefined;

/** The rules of each preset, as the control API document's `x-preset-rules` gives them (read once). */
export function rateLimitPresets(): Readonly<Record<RateLimitPreset, readonly RateLimitRule[]>> {
  if (presets) return presets;
  // js-yaml with the JSON schema, as swagger-parser reads the documents (and several times faster than `yaml`).
  const doc = load(readFileSync(controlApiPath, 'utf8'), { schema: JSON_SCHEMA }) as { components?: { schemas?: Record<string, Record<string, unknown>> } };
  const preset = doc.components?.schemas?.RateLimitPreset;
  const table = preset?.['x-preset-rules'] as Record<string, unknown> | undefined;
  const found: Partial<Record<RateLimitPreset, readonly RateLimitRule[]>> = {};
  for (const name of ['lenient', 'strict'] as const) {
    const rules = table?.[name];
    const problems = rulesProblems(rules);
    if (problems.length > 0) throw new Error(`${controlApiPath}: x-preset-rules of "${name}" are not usable: ${problems.join('; ')}`);
    found[name] = Object.freeze((rules as RateLimitRule[]).map((r) => Object.freeze({ ...r })));
  }
  presets = Object.freeze(found as Record<RateLimitPreset, readonly RateLimitRule[]>);
  return presets;
}

/** The settings for a preset name or a list of rules; throws with every problem. */
export function rateLimitSettings(rules: RateLimitPreset | readonly RateLimitRule[]): RateLimitSettings {
  const parsed = parseRateLimitConfig(typeof rules === 'string' ? { preset: rules } : { rules });
  if (!parsed.ok) throw new Error(`Invalid rate limit rules: ${parsed.problems.join('; ')}`);
  return parsed.settings;
}

/**
 * Reads a rate-limit configuration in the document's RateLimitUpdate shape, `{"preset":
 * "strict"}` or `{"rules": [...]}` (e.g. from a JSON file given to the CLI). Every problem
 * names where it is. An empty rules list switches limits off.
 */
export function parseRateLimitConfig(config: unknown): RateLimitConfigResult {
  if (!isObject(config)) return { ok: false, problems: ['must be an object with "preset" or "rules"'] };
  const keys = Object.keys(config);
  const extra = keys.filter((k) => k !== 'preset' && k !== 'rules');
  if (extra.length > 0) return { ok: false, problems: [`unknown field ${extra.map((k) => JSON.stringify(k)).join(', ')}; use "preset" or "rules"`] };
  if (keys.length !== 1) return { ok: false, problems: ['give either "preset" or "rules", not both'] };
  if ('preset' in config) {
    const name = config.preset;
    if (name === 'lenient' || name === 'strict') return { ok: true, settings: { preset: name, rules: rateLimitPresets()[name] } };
    return { ok: false, problems: ['preset must be one of lenient, strict'] };
  }
  const problems = rulesProblems(config.rules);
  if (problems.length > 0) return { ok: false, problems };
  const rules = (config.rules as RateLimitRule[]).map(({ key, limit, windowSeconds, blockSeconds }) => Object.freeze({ key, limit, windowSeconds, blockSeconds }));
  return { ok: true, settings: { preset: 'custom', rules: Object.freeze(rules) } };
}
