import { Faker, base } from '@faker-js/faker';

/** Uniform numbers in [0, 1) that follow from `seed`: the same seed, the same draws. */
export function seededRandom(seed: number): () => number {
  const faker = new Faker({ locale: [base], seed });
  return () => faker.number.float();
}
