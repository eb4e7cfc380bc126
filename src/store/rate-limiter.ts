import { systemClock, type Clock } from '../clock.js';
import type { BlockedRequest } from '../spec/types.js';
import { parseRateLimitConfig, RATE_LIMIT_KEYS, type RateLimitKey, type RateLimitPreset, type RateLimitRule } from './rate-limit-rules.js';

/** What the limiter knows of a request. Empty or absent fields are not counted. */
export interface RateLimitedRequest {
  readonly ip: string;
  readonly login?: string;
  readonly user?: string;
  readonly uri: string;
}

export type RateLimitDecision =
  | { readonly allowed: true }
  /** `newBlocks` holds the blocks this request activated (none when it hit an existing block). */
  | { readonly allowed: false; readonly retryAfterSeconds: number; readonly newBlocks: BlockedRequest[] };

/** A block in force: requests whose `key` has this `value` are refused until `expiresAt`. */
export interface ActiveBlock {
  readonly key: RateLimitKey;
  readonly value: string;
  readonly blockedAt: number;
  readonly expiresAt: number;
}

export interface RateLimiter {
  readonly rules: readonly RateLimitRule[];
  /** Counts a request and says whether it may go on. */
  hit(request: RateLimitedRequest): RateLimitDecision;
  /** Replaces the rules (checked; throws with every problem): windows start afresh, blocks stay. */
  setRules(rules: readonly RateLimitRule[]): void;
  /** The blocks in force now, oldest first. */
  activeBlocks(): ActiveBlock[];
  /** Lifts every block and empties every window; returns how many blocks were lifted. */
  clearBlocks(): number;
  /** Replaces the blocks by these (restoring a snapshot); those already over are dropped. Windows start afresh. */
  restoreBlocks(blocks: readonly ActiveBlock[]): void;
  /** Forgets every window and block. */
  reset(): void;
  /** How many windows and blocks are tracked (bounded by maxTrackedKeys). */
  tracked(): { windows: number; blocks: number };
}

export interface RateLimiterOptions {
  /** A preset name or rules; default `lenient`. Rules are checked (throws with every problem). */
  readonly rules?: RateLimitPreset | readonly RateLimitRule[];
  readonly clock?: Clock;
  /** Most windows and most blocks held at once; the oldest go first. Default 10,000. */
  readonly maxTrackedKeys?: number;
}

interface Window {
  start: number;
  count: number;
}

/**
 * A keyed fixed-window limiter: a key's window opens at its first counted request and lasts
 * `windowSeconds`; the request that goes over `limit` activates a block of `blockSeconds`
 * for that key, recorded once. Blocked requests are refused without being counted, and the
 * key's windows start afresh after the block, so it is served again once the ttl is over.
 */
function checkedRules(config: RateLimitPreset | readonly RateLimitRule[] | undefined): readonly RateLimitRule[] {
  const parsed = parseRateLimitConfig(typeof config === 'string' || config === undefined ? (config ?? 'lenient') : { rules: config });
  if (!parsed.ok) throw new Error(`Invalid rate limit rules: ${parsed.problems.join('; ')}`);
  return Object.freeze(parsed.rules.map((r) => Object.freeze(r)));
}

export function createRateLimiter(options: RateLimiterOptions = {}): RateLimiter {
  let rules = checkedRules(options.rules);
  const clock = options.clock ?? systemClock;
  const maxTracked = options.maxTrackedKeys ?? 10_000;
  const windows = new Map<string, Window>();
  const blocks = new Map<string, { blockedAt: number; until: number }>(); // key\0value -> the block's span (ms)
  let hits = 0;

  const valueOf = (request: RateLimitedRequest, key: RateLimitRule['key']): string | undefined => {
    const v = request[key];
    return typeof v === 'string' && v.length > 0 ? v : undefined;
  };

  function prune(now: number): void {
    for (const [k, w] of windows) {
      const rule = rules[Number(k.slice(0, k.indexOf('\0')))] as RateLimitRule;
      if (now >= w.start + rule.windowSeconds * 1000) windows.delete(k);
    }
    for (const [k, block] of blocks) if (block.until <= now) blocks.delete(k);
    for (const map of [windows, blocks]) {
      for (const k of map.keys()) {
        if (map.size <= maxTracked) break;
        map.delete(k); // Maps iterate oldest first
      }
    }
  }

  return {
    get rules() {
      return rules;
    },
    hit(request) {
      const now = clock.now();
      let waitMs = 0;
      for (const key of RATE_LIMIT_KEYS) {
        const v = valueOf(request, key);
        const until = v === undefined ? undefined : blocks.get(`${key}\0${v}`)?.until;
        if (until !== undefined && until > now) waitMs = Math.max(waitMs, until - now);
      }
      if (waitMs > 0) return { allowed: false, retryAfterSeconds: Math.ceil(waitMs / 1000), newBlocks: [] };

      const activated = new Map<string, BlockedRequest>();
      rules.forEach((rule, i) => {
        const v = valueOf(request, rule.key);
        if (v === undefined) return;
        const wk = `${i}\0${v}`;
        let w = windows.get(wk);
        if (!w || now >= w.start + rule.windowSeconds * 1000) {
          windows.delete(wk); // re-inserted last, so eviction takes idle keys first
          windows.set(wk, (w = { start: now, count: 0 }));
        }
        if (++w.count <= rule.limit) return;
        const bk = `${rule.key}\0${v}`;
        const earlier = activated.get(bk);
        if (earlier && (earlier.ttl ?? 0) >= rule.blockSeconds) return;
        activated.set(bk, { [rule.key]: v, timestamp: now, ttl: rule.blockSeconds });
      });
      if (++hits % 1024 === 0 || windows.size > maxTracked || blocks.size > maxTracked) prune(now);
      if (activated.size === 0) return { allowed: true };

      let ttl = 0;
      for (const [bk, record] of activated) {
        blocks.delete(bk);
        blocks.set(bk, { blockedAt: now, until: now + (record.ttl ?? 0) * 1000 });
        ttl = Math.max(ttl, record.ttl ?? 0);
        const key = bk.slice(0, bk.indexOf('\0'));
        const value = bk.slice(key.length + 1);
        rules.forEach((rule, i) => {
          if (rule.key === key) windows.delete(`${i}\0${value}`);
        });
      }
      if (blocks.size > maxTracked) prune(now);
      return { allowed: false, retryAfterSeconds: ttl, newBlocks: [...activated.values()] };
    },
    setRules(next) {
      rules = checkedRules(next);
      windows.clear();
    },
    activeBlocks() {
      const now = clock.now();
      const active: ActiveBlock[] = [];
      for (const [k, block] of blocks) {
        if (block.until <= now) continue;
        const key = k.slice(0, k.indexOf('\0')) as RateLimitKey;
        active.push({ key, value: k.slice(key.length + 1), blockedAt: block.blockedAt, expiresAt: block.until });
      }
      return active.sort((a, b) => a.blockedAt - b.blockedAt);
    },
    clearBlocks() {
      const now = clock.now();
      const lifted = [...blocks.values()].filter((b) => b.until > now).length;
      blocks.clear();
      windows.clear();
      return lifted;
    },
    restoreBlocks(list) {
      const now = clock.now();
      blocks.clear();
      windows.clear();
      for (const b of [...list].sort((x, y) => x.blockedAt - y.blockedAt)) {
        if (b.expiresAt > now) blocks.set(`${b.key}\0${b.value}`, { blockedAt: b.blockedAt, until: b.expiresAt });
      }
    },
    reset() {
      windows.clear();
      blocks.clear();
    },
    tracked: () => ({ windows: windows.size, blocks: blocks.size }),
  };
}
