import type { Faker, LocaleDefinition } from '@faker-js/faker';
// The base locale's entry point alone: the package's main one loads every locale (slow to start).
import { faker as baseFaker } from '@faker-js/faker/locale/base';

const FakerClass = baseFaker.constructor as typeof Faker;

/** A faker whose every draw follows from `seed`; the base locale has no words: pass another's definitions for names and words. */
export function seededFaker(seed: number, locale: LocaleDefinition = baseFaker.rawDefinitions): Faker {
  return new FakerClass({ locale, seed });
}

/** Uniform numbers in [0, 1) that follow from `seed`; the faker behind them is made on the first draw (most fakes never draw). */
export function seededRandom(seed: number): () => number {
  let faker: Faker | undefined;
  return () => (faker ??= seededFaker(seed)).number.float();
}
