import type { Clock } from '../shared/clock.js';
import { seededRandom } from '../shared/seeded-random.js';
import { generateEvents } from '../seed/generate-events.js';
import type { EventLogRecord } from '../spec/types.js';
import { createObjectIdGenerator } from '../shared/object-id.js';

/** The timer functions the feed uses; tests pass their own and fire ticks by hand. */
export interface FeedTimers {
  setInterval(tick: () => void, ms: number): unknown;
  clearInterval(handle: unknown): void;
}

export const systemTimers: FeedTimers = {
  setInterval: (tick, ms) => setInterval(tick, ms).unref(), // never keeps a process alive on its own
  clearInterval: (handle) => clearInterval(handle as NodeJS.Timeout),
};

export interface LiveFeedOptions {
  /** New records per second (1 to 1000). */
  readonly rate: number;
  /** The fake's seed: the feed's records follow from it (a stream of their own). */
  readonly seed: number;
  readonly clock: Clock;
  /** Stores a record; a throw (e.g. a clashing _id) skips that record. */
  readonly add: (record: EventLogRecord) => void;
  readonly timers?: FeedTimers;
}

export const MAX_LIVE_RATE = 1000;
/** Ticks are at most this often; a higher rate adds several records a tick. */
const MIN_PERIOD_MS = 100;
/** Records generated at once, then stamped one by one as they are added. */
const CHUNK = 256;

/**
 * Adds `rate` records per second, timestamped by the clock, so a UI sees the event log grow; contents
 * and `_id`s follow from the fake's seed. The clock only moves forward, so pages already read stay.
 */
export function startLiveFeed(options: LiveFeedOptions) {
  const { rate, seed, clock, add } = options;
  if (!Number.isInteger(rate) || rate < 1 || rate > MAX_LIVE_RATE) throw new RangeError(`live rate must be an integer from 1 to ${MAX_LIVE_RATE}, not ${rate}`);
  const timers = options.timers ?? systemTimers;
  const random = seededRandom(seed + 1_000_003);
  const nextId = createObjectIdGenerator(Uint8Array.from({ length: 5 }, () => Math.floor(random() * 256)), Math.floor(random() * 0x7fffff));
  const startedAt = clock.now();
  let chunk: EventLogRecord[] = [];
  let chunks = 0;
  let produced = 0;

  const nextContent = (): EventLogRecord => {
    if (chunk.length === 0) {
      chunks++;
      chunk = generateEvents({ seed: seed + 2_000_003 * chunks, count: CHUNK }).reverse();
    }
    return chunk.pop() as EventLogRecord;
  };

  const tick = () => {
    const now = clock.now();
    let due = Math.floor(((now - startedAt) * rate) / 1000) - produced;
    // After a long pause (a suspended laptop), catch up by ten seconds' worth at most.
    if (due > rate * 10) {
      produced += due - rate * 10;
      due = rate * 10;
    }
    for (let i = 0; i < due; i++) {
      produced++;
      const record = { ...nextContent(), _id: nextId(now), timestamp: now } as EventLogRecord;
      try {
        add(record);
      } catch {
        // A record the store refuses is skipped; the feed goes on.
      }
    }
  };
  const handle = timers.setInterval(tick, Math.max(MIN_PERIOD_MS, Math.floor(1000 / rate)));
  return { stop: () => timers.clearInterval(handle) };
}
