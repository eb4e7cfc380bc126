import type { EventLogRecord } from '../spec/types.js';
import { fixtureOrigin } from './event-fixtures.js';
import { DEFAULT_SEED, generateEvents, type GenerateEventsOptions } from './generate-events.js';

export interface SeedEventsOptions extends GenerateEventsOptions {
  /** Records to merge in, e.g. from loadEventFixtures. */
  readonly fixtures?: readonly EventLogRecord[];
}

/**
 * The seed of the event log: generated records plus fixtures. Throws when a fixture has
 * the _id of a generated record, naming the fixture and the seed.
 */
export function seedEvents(options: SeedEventsOptions = {}): EventLogRecord[] {
  const generated = generateEvents(options);
  const fixtures = options.fixtures ?? [];
  if (fixtures.length === 0) return generated;
  const fixtureIds = new Map(fixtures.map((f) => [f._id, f]));
  for (const r of generated) {
    const clash = fixtureIds.get(r._id);
    if (clash) {
      const where = fixtureOrigin(clash) ?? 'a fixture record';
      throw new Error(
        `Duplicate _id "${r._id}": ${where} has the _id of a generated record (seed ${options.seed ?? DEFAULT_SEED}); give the fixture another _id.`,
      );
    }
  }
  return generated.concat(fixtures);
}
