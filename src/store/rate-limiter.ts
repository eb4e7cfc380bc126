import { deepFreeze } from '../shared/deep-freeze.js';
import { systemClock, type Clock } from '../shared/clock.js';
import type { BlockedRequest, LimitBlockLogQueryParams } from '../spec/types.js';
import type { ActiveBlock, RateLimitKey, RateLimitRule, RateLimitSettings } from '../spec/control-types.js';

// The rate limits of spec section 8: the limiter that counts requests and blocks, and the log of the blocks.

/** What the limiter knows of a request, by the control document's RateLimitKey; empty or absent values are not counted. */
export type RateLimitedRequest = Readonly<Partial<Record<RateLimitKey, string>>>;

export type RateLimitDecision =
  | { readonly allowed: true }
  /** `newBlocks` holds the blocks this request activated (none when it hit an existing block). */
  | { readonly allowed: false; readonly retryAfterSeconds: number; readonly newBlocks: BlockedRequest[] };

export type RateLimiter = ReturnType<typeof createRateLimiter>;

export interface RateLimiterOptions {
  /** The (valid) rules in force at start and after a reset; default none. */
  readonly rules?: RateLimitSettings | readonly RateLimitRule[];
  readonly clock?: Clock;
  /** Most windows and most blocks held at once; the oldest go first. Default 10,000. */
  readonly maxTrackedKeys?: number;
}

interface Window {
  start: number;
  count: number;
}

const blockKey = (key: RateLimitKey, value: string) => `${key}\0${value}`;
// Every key of the document's RateLimitKey (the type fails to check when one is missing).
const KEYS = Object.keys({ ip: 0, login: 0, user: 0, uri: 0 } satisfies Record<RateLimitKey, 0>) as RateLimitKey[];
const settingsOf = (rules: RateLimitSettings | readonly RateLimitRule[]): RateLimitSettings =>
  'preset' in rules ? rules : { preset: 'custom', rules: [...rules] };
const ALLOWED: RateLimitDecision = Object.freeze({ allowed: true });

/** A keyed fixed-window limiter, as the control API document's RateLimitRule describes it. */
export function createRateLimiter(options: RateLimiterOptions = {}) {
  const startup = settingsOf(options.rules ?? []);
  let settings = startup;
  const clock = options.clock ?? systemClock;
  const maxTracked = options.maxTrackedKeys ?? 10_000;
  // One map per rule (by its index), from a key value to its window: looked up by the value
  // itself, so counting a request makes no key text.
  const emptyWindows = () => settings.rules.map(() => new Map<string, Window>());
  let windows = emptyWindows();
  const windowCount = () => windows.reduce((sum, map) => sum + map.size, 0);
  // The blocks as the control API shows them, by key and value.
  const blocks = new Map<string, ActiveBlock>();
  let hits = 0;

  const valueOf = (request: RateLimitedRequest, key: RateLimitKey): string | undefined => request[key] || undefined;
  const empty = (): void => {
    windows = emptyWindows();
    blocks.clear();
  };

  function prune(now: number): void {
    windows.forEach((map, i) => {
      const windowMs = (settings.rules[i] as RateLimitRule).windowSeconds * 1000;
      for (const [v, w] of map) if (now >= w.start + windowMs) map.delete(v);
    });
    for (const [k, b] of blocks) if (b.expiresAt <= now) blocks.delete(k);
    // Over the bound, the oldest windows of the fullest rules go first (Maps iterate oldest first).
    for (let over = windowCount() - maxTracked; over > 0; over--) {
      const fullest = windows.reduce((a, b) => (b.size > a.size ? b : a));
      fullest.delete(fullest.keys().next().value as string);
    }
    for (const k of blocks.keys()) {
      if (blocks.size <= maxTracked) break;
      blocks.delete(k);
    }
  }

  function block(request: RateLimitedRequest, rule: RateLimitRule, value: string, now: number): BlockedRequest {
    blocks.delete(blockKey(rule.key, value)); // re-inserted last: the oldest are evicted first
    blocks.set(blockKey(rule.key, value), { key: rule.key, value, blockedAt: now, expiresAt: now + rule.blockSeconds * 1000 });
    settings.rules.forEach((r, i) => r.key === rule.key && windows[i]?.delete(value));
    const login = rule.key === 'user' ? valueOf(request, 'login') : undefined;
    return { [rule.key]: value, ...(login === undefined ? {} : { login }), timestamp: now, ttl: rule.blockSeconds };
  }

  const inForce = (now: number) => [...blocks.values()].filter((b) => b.expiresAt > now);

  return {
    /** The rules in force and their preset (`custom` when given as rules). */
    settings: (): RateLimitSettings => settings,
    /** New (valid) rules: the windows restart, active blocks stay. */
    setRules(rules: RateLimitSettings | readonly RateLimitRule[]): RateLimitSettings {
      settings = settingsOf(rules);
      windows = emptyWindows();
      return settings;
    },
    /** Counts a request and says whether it may go on. */
    hit(request: RateLimitedRequest): RateLimitDecision {
      const now = clock.now();
      // Every request passes here: no block lookups while nothing is blocked, no allocation
      // unless a rule is exceeded.
      let waitMs = 0;
      for (const key of blocks.size > 0 ? KEYS : []) {
        const v = valueOf(request, key);
        const b = v === undefined ? undefined : blocks.get(blockKey(key, v));
        if (b && b.expiresAt > now) waitMs = Math.max(waitMs, b.expiresAt - now);
      }
      if (waitMs > 0) return { allowed: false, retryAfterSeconds: Math.ceil(waitMs / 1000), newBlocks: [] };

      // Over-limit rules, at most one (the longest block) per key value.
      let over: Map<string, { rule: RateLimitRule; value: string }> | undefined;
      let opened = false;
      const rules = settings.rules;
      for (let i = 0; i < rules.length; i++) {
        const rule = rules[i] as RateLimitRule;
        const v = valueOf(request, rule.key);
        if (v === undefined) continue;
        const ruleWindows = windows[i] as Map<string, Window>;
        let w = ruleWindows.get(v);
        if (!w || now >= w.start + rule.windowSeconds * 1000) {
          ruleWindows.delete(v); // re-inserted last, so eviction takes idle keys first
          ruleWindows.set(v, (w = { start: now, count: 0 }));
          opened = true;
        }
        if (++w.count <= rule.limit) continue;
        over ??= new Map();
        const earlier = over.get(blockKey(rule.key, v));
        if (!earlier || earlier.rule.blockSeconds < rule.blockSeconds) over.set(blockKey(rule.key, v), { rule, value: v });
      }
      if (++hits % 1024 === 0 || (opened && windowCount() > maxTracked)) prune(now);
      if (over === undefined) return ALLOWED;
      const newBlocks = [...over.values()].map(({ rule, value }) => block(request, rule, value, now));
      if (blocks.size > maxTracked) prune(now);
      return { allowed: false, retryAfterSeconds: Math.max(...newBlocks.map((b) => b.ttl ?? 0)), newBlocks };
    },
    /** The blocks in force now, oldest first. */
    activeBlocks(): ActiveBlock[] {
      return inForce(clock.now())
        .sort((a, b) => a.blockedAt - b.blockedAt)
        .map((b) => ({ ...b }));
    },
    /** Replaces the blocks (from a snapshot): windows start empty, expired blocks are dropped. */
    restoreActiveBlocks(active: readonly ActiveBlock[]): void {
      const now = clock.now();
      empty();
      for (const b of [...active].sort((x, y) => x.blockedAt - y.blockedAt)) {
        if (b.expiresAt > now) blocks.set(blockKey(b.key, b.value), { key: b.key, value: b.value, blockedAt: b.blockedAt, expiresAt: b.expiresAt });
      }
      prune(now);
    },
    /** Lifts every block and empties the windows; returns how many blocks were in force. */
    clear(): number {
      const lifted = inForce(clock.now()).length;
      empty();
      return lifted;
    },
    /** Back to the start-up rules, with no blocks and empty windows. */
    reset(): void {
      settings = startup;
      empty();
    },
    /** How many windows and blocks are tracked (bounded by maxTrackedKeys). */
    tracked: () => ({ windows: windowCount(), blocks: blocks.size }),
  };
}

const timeOf = (r: BlockedRequest) => r.timestamp ?? -Infinity;

/**
 * The log of blocked requests, in timestamp order (records without one first; equal timestamps
 * in the order added), as frozen copies. Holds at most `maxRecords`, dropping the oldest.
 */
export class BlockLogStore {
  readonly #seed: readonly BlockedRequest[];
  readonly #maxRecords: number;
  #records: BlockedRequest[] = [];

  constructor(seed: readonly BlockedRequest[] = [], options: { maxRecords?: number | undefined } = {}) {
    this.#maxRecords = options.maxRecords ?? 100_000;
    this.restore(seed);
    this.#seed = this.#records.slice();
  }

  get size(): number {
    return this.#records.length;
  }

  add(record: BlockedRequest): BlockedRequest {
    const stored = deepFreeze(structuredClone(record));
    const records = this.#records;
    let i = records.length;
    while (i > 0 && timeOf(records[i - 1]!) > timeOf(stored)) i--; // blocks arrive in time order: nearly always no step
    records.splice(i, 0, stored);
    if (records.length > this.#maxRecords) records.shift();
    return stored;
  }

  /** The records a query selects (valid values: the server checks the parameters), oldest first. */
  query(q: LimitBlockLogQueryParams = {}): BlockedRequest[] {
    const matches = this.#records.filter((r) => {
      if (q.from !== undefined && !(r.timestamp !== undefined && r.timestamp >= q.from)) return false;
      if (q.to !== undefined && !(r.timestamp !== undefined && r.timestamp <= q.to)) return false;
      return KEYS.every((f) => q[f] !== true || (typeof r[f] === 'string' && r[f].length > 0));
    });
    const skip = q.skip ?? 0;
    return matches.slice(skip, q.limit === undefined ? undefined : skip + q.limit);
  }

  /** Empties the log; returns how many records it held. */
  clear(): number {
    const count = this.size;
    this.#records = [];
    return count;
  }

  snapshot(): BlockedRequest[] {
    return this.#records.slice();
  }

  restore(records: readonly BlockedRequest[]): void {
    const copies = records.map((r) => (Object.isFrozen(r) ? r : deepFreeze(structuredClone(r))));
    copies.sort((a, b) => timeOf(a) - timeOf(b) || 0); // stable: equal timestamps keep their order
    this.#records = copies.slice(Math.max(0, copies.length - this.#maxRecords));
  }

  /** Back to the seed records. */
  reset(): void {
    this.restore(this.#seed);
  }
}
