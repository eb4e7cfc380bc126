import { systemClock, type Clock } from '../clock.js';
import { generateBlocks } from '../seed/generate-blocks.js';
import { seedEvents, type SeedEventsOptions } from '../seed/seed-events.js';
import { BlockLogStore } from './block-log.js';
import { EventLogStore } from './event-log.js';
import type { RateLimitPreset, RateLimitRule } from './rate-limit-rules.js';
import { createRateLimiter, type RateLimitDecision, type RateLimitedRequest, type RateLimiter } from './rate-limiter.js';

export interface DataStateOptions extends SeedEventsOptions {
  /** Historic blocked-request records to seed; default DEFAULT_BLOCK_COUNT. */
  readonly blockCount?: number;
  readonly clock?: Clock;
  /** A preset of the control API document or rules; default `lenient`. */
  readonly rateLimit?: RateLimitPreset | readonly RateLimitRule[];
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
   * Back to the seed: events and block log as generated, no active blocks, empty windows,
   * and the start-up rate-limit rules unless `keepRateLimitRules`.
   */
  reset(options?: { keepRateLimitRules?: boolean }): void;
}

/** Builds the seeded stores and the limiter; throws on bad options or a fixture _id clash. */
export function createDataState(options: DataStateOptions = {}): DataState {
  const clock = options.clock ?? systemClock;
  const events = new EventLogStore(seedEvents(options), { adopt: true });
  const blocks = new BlockLogStore(
    generateBlocks({ seed: options.seed, count: options.blockCount, endTime: options.endTime, spanMs: options.spanMs }),
    { maxRecords: options.maxBlockRecords },
  );
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
