/** What a rule counts requests by; the name is also the field of the block record. */
export type RateLimitKey = 'ip' | 'login' | 'user' | 'uri';

/** At most `limit` requests per key in a window of `windowSeconds`; one more blocks the key for `blockSeconds`. */
export interface RateLimitRule {
  readonly key: RateLimitKey;
  readonly limit: number;
  readonly windowSeconds: number;
  readonly blockSeconds: number;
}

export const RATE_LIMIT_KEYS: readonly RateLimitKey[] = ['ip', 'login', 'user', 'uri'];

/**
 * `lenient` (the default) is far above what a person or a UI in development sends, so only a
 * runaway loop or a load test trips it. `strict` trips within a few seconds of clicking, for
 * demos of blocking and for tests.
 */
export const RATE_LIMIT_PRESETS = {
  lenient: [
    { key: 'ip', limit: 3_000, windowSeconds: 10, blockSeconds: 30 },
    { key: 'login', limit: 3_000, windowSeconds: 10, blockSeconds: 30 },
    { key: 'user', limit: 3_000, windowSeconds: 10, blockSeconds: 30 },
  ],
  strict: [
    { key: 'ip', limit: 20, windowSeconds: 10, blockSeconds: 60 },
    { key: 'login', limit: 10, windowSeconds: 10, blockSeconds: 60 },
    { key: 'user', limit: 10, windowSeconds: 10, blockSeconds: 60 },
    { key: 'uri', limit: 50, windowSeconds: 10, blockSeconds: 30 },
  ],
} as const satisfies Record<string, readonly RateLimitRule[]>;

export type RateLimitPreset = keyof typeof RATE_LIMIT_PRESETS;

/** Upper bounds that keep a configuration sane (a day of window or block, a billion requests). */
const MAX = { limit: 1_000_000_000, windowSeconds: 86_400, blockSeconds: 86_400 } as const;
const RULE_FIELDS = ['key', 'limit', 'windowSeconds', 'blockSeconds'];

export type RateLimitConfigResult = { readonly ok: true; readonly rules: RateLimitRule[] } | { readonly ok: false; readonly problems: string[] };

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * Reads a rate limit configuration (e.g. a JSON file): a preset name, `{"preset": name}`,
 * `{"rules": [...]}` or a bare array of rules. Every problem names where it is, e.g.
 * `rules[1].limit must be an integer from 1 to 1000000000`. An empty array switches limits off.
 */
export function parseRateLimitConfig(config: unknown): RateLimitConfigResult {
  if (typeof config === 'string') return presetRules(config, 'preset');
  if (isObject(config)) {
    const extra = Object.keys(config).filter((k) => k !== 'preset' && k !== 'rules');
    if (extra.length > 0) return { ok: false, problems: [`unknown field ${extra.map((k) => JSON.stringify(k)).join(', ')}; use "preset" or "rules"`] };
    if ('preset' in config && 'rules' in config) return { ok: false, problems: ['give either "preset" or "rules", not both'] };
    if ('preset' in config) return presetRules(config.preset, 'preset');
    if (!('rules' in config)) return { ok: false, problems: ['needs "preset" or "rules"'] };
    config = config.rules;
  }
  if (!Array.isArray(config)) return { ok: false, problems: ['rules must be an array of {key, limit, windowSeconds, blockSeconds}'] };
  const problems: string[] = [];
  config.forEach((rule: unknown, i) => {
    const at = `rules[${i}]`;
    if (!isObject(rule)) {
      problems.push(`${at} must be an object`);
      return;
    }
    for (const k of Object.keys(rule)) if (!RULE_FIELDS.includes(k)) problems.push(`${at} has an unknown field "${k}"`);
    if (!RATE_LIMIT_KEYS.includes(rule.key as RateLimitKey)) problems.push(`${at}.key must be one of ${RATE_LIMIT_KEYS.join(', ')}`);
    for (const field of ['limit', 'windowSeconds', 'blockSeconds'] as const) {
      const v = rule[field];
      if (!Number.isSafeInteger(v) || (v as number) < 1 || (v as number) > MAX[field]) {
        problems.push(`${at}.${field} must be an integer from 1 to ${MAX[field]}`);
      }
    }
  });
  return problems.length > 0 ? { ok: false, problems } : { ok: true, rules: (config as RateLimitRule[]).map((r) => ({ ...r })) };
}

function presetRules(name: unknown, at: string): RateLimitConfigResult {
  if (typeof name === 'string' && Object.hasOwn(RATE_LIMIT_PRESETS, name)) {
    return { ok: true, rules: RATE_LIMIT_PRESETS[name as RateLimitPreset].map((r) => ({ ...r })) };
  }
  return { ok: false, problems: [`${at} must be one of ${Object.keys(RATE_LIMIT_PRESETS).join(', ')}`] };
}
