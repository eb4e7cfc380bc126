import { systemClock, type Clock } from '../shared/clock.js';
import type { RateLimitRule, RateLimitSettings } from '../spec/control-types.js';
import type { BlockedRequest, EventLogRecord } from '../spec/types.js';
import { BlockLogStore } from './block-log.js';
import { EventLogStore } from './event-log.js';
import { createRateLimiter, type RateLimitDecision, type RateLimitedRequest, type RateLimiter } from './rate-limiter.js';

export interface DataStateOptions {
  /**
   * The event log records to start from and to go back to on reset (e.g. src/seed's
   * seedRecords). They are adopted: frozen in place, not copied.
   */
  readonly events?: readonly EventLogRecord[];
  /** The block log records to start from and to go back to on reset. */
  readonly blocks?: readonly BlockedRequest[];
  readonly clock?: Clock;
  /** The rate-limit rules in force at start and after a reset (valid ones); default none. */
  readonly rateLimit?: RateLimitSettings | readonly RateLimitRule[];
  readonly maxTrackedKeys?: number;
  /** Most blocked-request records kept; default 100,000. */
  readonly maxBlockRecords?: number;
}

/** The data of the fake: the event log, the block log and the limiter that feeds it. No HTTP. */
export interface DataState {
  readonly events: EventLogStore;
  readonly blocks: BlockLogStore;
  readonly limiter: RateLimiter;
  /** Counts a request against the limits; the blocks it activates are added to the block log. */
  admit(request: RateLimitedRequest): RateLimitDecision;
  /**
   * Back to the start: events and block log as given, no active blocks, empty windows,
   * and the start-up rate-limit rules unless `keepRateLimitRules`.
   */
  reset(options?: { keepRateLimitRules?: boolean }): void;
}

/** Builds the stores from their first records, and the limiter; throws on a bad record or option. */
export function createDataState(options: DataStateOptions = {}): DataState {
  const clock = options.clock ?? systemClock;
  const events = new EventLogStore(options.events, { adopt: true });
  const blocks = new BlockLogStore(options.blocks, { maxRecords: options.maxBlockRecords });
  const limiter = createRateLimiter({ rules: options.rateLimit, clock, maxTrackedKeys: options.maxTrackedKeys });
  return {
    events,
    blocks,
    limiter,
    admit(request) {
      const decision = limiter.hit(request);
      if (!decision.allowed) for (const block of decision.newBlocks) blocks.add(block);
      return decision;
    },
    reset(resetOptions = {}) {
      events.reset();
      blocks.reset();
      limiter.reset({ keepRules: resetOptions.keepRateLimitRules === true });
    },
  };
}
