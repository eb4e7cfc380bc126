import type { Clock } from '../shared/clock.js';
import type { BlockedRequest } from '../spec/types.js';
import type { RateLimitKey, RateLimitRule, RateLimitSettings } from '../spec/control-types.js';

// What the rate limiter offers and is given (rate-limiter.ts holds how it counts and blocks).

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
