import type { Faker } from '@faker-js/faker';
// The base locale's entry point alone: the package's main one loads every locale (slow to start).
import { faker as baseFaker } from '@faker-js/faker/locale/base';

const FakerClass = baseFaker.constructor as typeof Faker;

/** Uniform numbers in [0, 1) that follow from `seed`: the same seed, the same draws. */
export function seededRandom(seed: number): () => number {
  const faker = new FakerClass({ locale: baseFaker.rawDefinitions, seed });
  return () => faker.number.float();
}
