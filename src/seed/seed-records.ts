import type { BlockedRequest, EventLogRecord } from '../spec/types.js';
import { fixtureOrigin } from './event-fixtures.js';
import { generateBlocks } from './generate-blocks.js';
import { DEFAULT_SEED, planEvents, type GenerateEventsOptions } from './generate-events.js';

export interface SeedEventsOptions extends GenerateEventsOptions {
  /** Records to merge in, e.g. from loadEventFixtures. */
  readonly fixtures?: readonly EventLogRecord[];
}

/**
 * The seed of the event log: generated records plus fixtures. Throws when a fixture has
 * the _id of a generated record, naming the fixture and the seed.
 */
export function seedEvents(options: SeedEventsOptions = {}): EventLogRecord[] {
  return seedEventsLater(options)();
}

/**
 * The same seed, made when the returned function is first called; the fixtures are checked
 * against the generated ids now, so a clash throws here and not on first use.
 */
export function seedEventsLater(options: SeedEventsOptions = {}): () => EventLogRecord[] {
  const plan = planEvents(options);
  const fixtures = options.fixtures ?? [];
  if (fixtures.length === 0) return () => plan.records();
  const fixtureIds = new Map(fixtures.map((f) => [f._id, f]));
  for (const id of plan.ids) {
    const clash = fixtureIds.get(id);
    if (clash) {
      const where = fixtureOrigin(clash) ?? 'a fixture record';
      throw new Error(
        `Duplicate _id "${id}": ${where} has the _id of a generated record (seed ${options.seed ?? DEFAULT_SEED}); give the fixture another _id.`,
      );
    }
  }
  return () => plan.records().concat(fixtures);
}

export interface SeedRecordsOptions extends SeedEventsOptions {
  /** Historic blocked-request records; default DEFAULT_BLOCK_COUNT. */
  readonly blockCount?: number;
}

/**
 * The records a fresh state starts from (the store's createDataState takes them): the event
 * log's seed, made on first use (see seedEventsLater), and the block log's, from one seed and
 * time window.
 */
export function seedRecords(options: SeedRecordsOptions = {}): { events: () => EventLogRecord[]; blocks: BlockedRequest[] } {
  const { seed, blockCount, endTime, spanMs } = options;
  return { events: seedEventsLater(options), blocks: generateBlocks({ seed, count: blockCount, endTime, spanMs }) };
}
