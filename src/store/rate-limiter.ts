import { systemClock, type Clock } from '../shared/clock.js';
import type { BlockedRequest } from '../spec/types.js';
import type { RateLimitKey, RateLimitRule, RateLimitSettings } from '../spec/control-types.js';

/** What the limiter knows of a request. Empty or absent fields are not counted. */
export interface RateLimitedRequest {
  readonly ip: string;
  /** The login the request presents (Basic credentials or the log-in body), right or wrong. */
  readonly login?: string;
  /** The id of the authenticated user. */
  readonly user?: string;
  /** The request path without its query. */
  readonly uri: string;
}

export type RateLimitDecision =
  | { readonly allowed: true }
  /** `newBlocks` holds the blocks this request activated (none when it hit an existing block). */
  | { readonly allowed: false; readonly retryAfterSeconds: number; readonly newBlocks: BlockedRequest[] };

/** A block in force, in the control API document's ActiveBlock shape. */
export interface ActiveBlock {
  readonly key: RateLimitKey;
  readonly value: string;
  readonly blockedAt: number;
  readonly expiresAt: number;
}

export interface RateLimiter {
  /** The rules in force and their preset (`custom` when given as rules). */
  settings(): RateLimitSettings;
  /** New rules (valid ones, e.g. checked by the control API document): the windows restart, active blocks stay. */
  setRules(rules: RateLimitSettings | readonly RateLimitRule[]): RateLimitSettings;
  /** Counts a request and says whether it may go on. */
  hit(request: RateLimitedRequest): RateLimitDecision;
  /** The blocks in force now, oldest first. */
  activeBlocks(): ActiveBlock[];
  /** Replaces the blocks (e.g. from a snapshot): windows start empty, expired blocks are dropped. */
  restoreActiveBlocks(blocks: readonly ActiveBlock[]): void;
  /** Lifts every block and empties the windows; returns how many blocks were in force. */
  clear(): number;
  /** Back to the start-up rules (unless keepRules), with no blocks and empty windows. */
  reset(options?: { keepRules?: boolean }): void;
  /** How many windows and blocks are tracked (bounded by maxTrackedKeys). */
  tracked(): { windows: number; blocks: number };
}

export interface RateLimiterOptions {
  /**
   * The rules in force at start and after a reset, valid ones, with the preset they come from
   * or alone (`custom`); default none (no limits).
   */
  readonly rules?: RateLimitSettings | readonly RateLimitRule[];
  readonly clock?: Clock;
  /** Most windows and most blocks held at once; the oldest go first. Default 10,000. */
  readonly maxTrackedKeys?: number;
}

interface Window {
  start: number;
  count: number;
}

interface Block {
  readonly key: RateLimitKey;
  readonly value: string;
  readonly blockedAt: number;
  readonly until: number;
}

const blockKey = (key: RateLimitKey, value: string) => `${key}\0${value}`;
// Every key of the document's RateLimitKey (the type fails to check when one is missing).
const KEYS = Object.keys({ ip: 0, login: 0, user: 0, uri: 0 } satisfies Record<RateLimitKey, 0>) as RateLimitKey[];
const settingsOf = (rules: RateLimitSettings | readonly RateLimitRule[]): RateLimitSettings =>
  'preset' in rules ? rules : { preset: 'custom', rules: [...rules] };
const ALLOWED: RateLimitDecision = Object.freeze({ allowed: true });

/**
 * A keyed fixed-window limiter, as the control API document's RateLimitRule describes it: a
 * key value's window opens at its first counted request and lasts `windowSeconds`; the
 * request that goes over `limit` is refused and blocks that value for `blockSeconds`, with
 * one block record; while blocked, requests are refused (Retry-After: the seconds left,
 * rounded up) and not counted; afterwards the value starts with fresh windows.
 */
export function createRateLimiter(options: RateLimiterOptions = {}): RateLimiter {
  const startup = settingsOf(options.rules ?? []);
  let settings = startup;
  const clock = options.clock ?? systemClock;
  const maxTracked = options.maxTrackedKeys ?? 10_000;
  let windows = new Map<string, Window>(); // rule index\0value
  const blocks = new Map<string, Block>();
  let hits = 0;

  const valueOf = (request: RateLimitedRequest, key: RateLimitKey): string | undefined => {
    const v = request[key];
    return typeof v === 'string' && v.length > 0 ? v : undefined;
  };

  function prune(now: number): void {
    for (const [k, w] of windows) {
      const rule = settings.rules[Number(k.slice(0, k.indexOf('\0')))];
      if (!rule || now >= w.start + rule.windowSeconds * 1000) windows.delete(k);
    }
    for (const [k, b] of blocks) if (b.until <= now) blocks.delete(k);
    for (const map of [windows, blocks]) {
      for (const k of map.keys()) {
        if (map.size <= maxTracked) break;
        map.delete(k); // Maps iterate oldest first
      }
    }
  }

  function block(request: RateLimitedRequest, rule: RateLimitRule, value: string, now: number): BlockedRequest {
    blocks.delete(blockKey(rule.key, value)); // re-inserted last: the oldest are evicted first
    blocks.set(blockKey(rule.key, value), { key: rule.key, value, blockedAt: now, until: now + rule.blockSeconds * 1000 });
    settings.rules.forEach((r, i) => r.key === rule.key && windows.delete(`${i}\0${value}`));
    const login = rule.key === 'user' ? valueOf(request, 'login') : undefined;
    return { [rule.key]: value, ...(login === undefined ? {} : { login }), timestamp: now, ttl: rule.blockSeconds };
  }

  const inForce = (now: number) => [...blocks.values()].filter((b) => b.until > now);

  return {
    settings: () => settings,
    setRules(rules) {
      settings = settingsOf(rules);
      windows = new Map();
      return settings;
    },
    hit(request) {
      const now = clock.now();
      // Every request passes here: no block lookups while nothing is blocked, no allocation
      // unless a rule is exceeded.
      let waitMs = 0;
      if (blocks.size > 0) {
        for (const key of KEYS) {
          const v = valueOf(request, key);
          const b = v === undefined ? undefined : blocks.get(blockKey(key, v));
          if (b && b.until > now) waitMs = Math.max(waitMs, b.until - now);
        }
      }
      if (waitMs > 0) return { allowed: false, retryAfterSeconds: Math.ceil(waitMs / 1000), newBlocks: [] };

      // Over-limit rules, at most one (the longest block) per key value.
      let over: Map<string, { rule: RateLimitRule; value: string }> | undefined;
      const rules = settings.rules;
      for (let i = 0; i < rules.length; i++) {
        const rule = rules[i] as RateLimitRule;
        const v = valueOf(request, rule.key);
        if (v === undefined) continue;
        const wk = `${i}\0${v}`;
        let w = windows.get(wk);
        if (!w || now >= w.start + rule.windowSeconds * 1000) {
          windows.delete(wk); // re-inserted last, so eviction takes idle keys first
          windows.set(wk, (w = { start: now, count: 0 }));
        }
        if (++w.count <= rule.limit) continue;
        over ??= new Map();
        const earlier = over.get(blockKey(rule.key, v));
        if (!earlier || earlier.rule.blockSeconds < rule.blockSeconds) over.set(blockKey(rule.key, v), { rule, value: v });
      }
      if (++hits % 1024 === 0 || windows.size > maxTracked) prune(now);
      if (over === undefined) return ALLOWED;
      const newBlocks = [...over.values()].map(({ rule, value }) => block(request, rule, value, now));
      if (blocks.size > maxTracked) prune(now);
      return { allowed: false, retryAfterSeconds: Math.max(...newBlocks.map((b) => b.ttl ?? 0)), newBlocks };
    },
    activeBlocks() {
      return inForce(clock.now())
        .sort((a, b) => a.blockedAt - b.blockedAt)
        .map(({ key, value, blockedAt, until }) => ({ key, value, blockedAt, expiresAt: until }));
    },
    restoreActiveBlocks(active) {
      const now = clock.now();
      windows = new Map();
      blocks.clear();
      for (const b of [...active].sort((x, y) => x.blockedAt - y.blockedAt)) {
        if (b.expiresAt > now) blocks.set(blockKey(b.key, b.value), { key: b.key, value: b.value, blockedAt: b.blockedAt, until: b.expiresAt });
      }
      prune(now);
    },
    clear() {
      const lifted = inForce(clock.now()).length;
      windows = new Map();
      blocks.clear();
      return lifted;
    },
    reset(resetOptions = {}) {
      if (resetOptions.keepRules !== true) settings = startup;
      windows = new Map();
      blocks.clear();
    },
    tracked: () => ({ windows: windows.size, blocks: blocks.size }),
  };
}
