import type { EventLogRecord } from '../spec/types.js';
import { shiftTimestamps, timeSpan } from './anchor.js';
import { fixtureOrigin } from './fixtures.js';
import { DEFAULT_BLOCK_COUNT, generateBlocks, type BlockedUser } from './generate-blocks.js';
import { DEFAULT_END_TIME, DEFAULT_EVENT_COUNT, DEFAULT_SEED, DEFAULT_SPAN_MS, planEvents, type EventPlan, type GenerateEventsOptions } from './generate-events.js';
import type { LoadedRecording } from './recording.js';

export interface SeedRecordsOptions extends GenerateEventsOptions {
  /** Records to merge in, e.g. from loadEventFixtures. */
  readonly fixtures?: readonly EventLogRecord[];
  /** Historic blocked-request records; default DEFAULT_BLOCK_COUNT (none beside a recording without generated records). */
  readonly blockCount?: number;
  /** Recorded data, served as it is, with no generated records unless `count` asks (they then end where it ends). */
  readonly recording?: LoadedRecording;
  /** The users generated blocks by login or user name (the fake's users); default none. */
  readonly users?: readonly BlockedUser[];
  /** Where the data's newest instant falls, ms (see anchor.ts); default: the data's own times. */
  readonly anchor?: number;
}

/** The most generated records a seed shares with the next one made the same way (about 6 MB); a larger seed is not held after its fake closes. */
const SHARED_MAX = 10_000;
let shared: { readonly key: string; readonly plan: EventPlan } | undefined;

/**
 * The generated records' plan. Without an anchor the same options give the same records: a seed
 * made again the same way (a createFake in each test) shares the last one's frozen records.
 */
function sharedPlan(options: Required<GenerateEventsOptions>, anchored: boolean): EventPlan {
  if (anchored || options.count > SHARED_MAX) return planEvents(options);
  const key = JSON.stringify(options);
  if (shared?.key !== key) shared = { key, plan: planEvents(options) };
  return shared.plan;
}

/** Throws when two records of the seed share an _id, naming the fixture (and the seed for a generated one). */
function checkIds(generated: readonly string[], extra: readonly EventLogRecord[], seed: number): void {
  const taken = new Set(generated);
  const seen = new Map<string, EventLogRecord>();
  for (const record of extra) {
    const where = fixtureOrigin(record) ?? 'a fixture record';
    if (taken.has(record._id)) {
      throw new Error(`Duplicate _id "${record._id}": ${where} has the _id of a generated record (seed ${seed}); give the fixture another _id.`);
    }
    const earlier = seen.get(record._id);
    if (earlier) throw new Error(`Duplicate _id "${record._id}": ${where} has the _id of ${fixtureOrigin(earlier) ?? 'a recorded record'}.`);
    seen.set(record._id, record);
  }
}

/**
 * The records a fresh state starts from: generated, fixtures' and a recording's, and the block
 * log's, on one timeline that the anchor moves as a whole. A clash of _ids throws here, not on first use.
 */
export function seedRecords(options: SeedRecordsOptions = {}) {
  const { seed = DEFAULT_SEED, recording, spanMs = DEFAULT_SPAN_MS } = options;
  const count = options.count ?? (recording ? 0 : DEFAULT_EVENT_COUNT);
  const blockCount = options.blockCount ?? (recording && count === 0 ? 0 : DEFAULT_BLOCK_COUNT);
  const recordedEnd = recording && timeSpan([...recording.events, ...recording.blocks])?.last;
  const endTime = options.endTime ?? recordedEnd ?? DEFAULT_END_TIME;
  const plan = sharedPlan({ seed, count, endTime, spanMs }, options.anchor !== undefined);
  const extra = [...(options.fixtures ?? []), ...(recording?.events ?? [])];
  checkIds(plan.ids, extra, seed);
  const blocks = [...generateBlocks({ seed, count: blockCount, endTime, spanMs, users: options.users }), ...(recording?.blocks ?? [])];

  const span = timeSpan([...(plan.span ? [{ timestamp: plan.span.first }, { timestamp: plan.span.last }] : []), ...extra, ...blocks]);
  // How far the data moves: 0 without an anchor or without any timestamp.
  const shift = options.anchor === undefined || span === undefined ? 0 : options.anchor - span.last;
  if (span && span.first + shift < 0) throw new RangeError(`anchor ${options.anchor}: the data spans ${span.last - span.first} ms and would start before 1970`);
  return {
    events: [...plan.records(shift), ...shiftTimestamps(extra, shift)],
    blocks: [...shiftTimestamps(blocks, shift)],
    /** How far the anchor moved the data, ms (records added to the seed later move as far). */
    shift,
  };
}
