// Everything generated comes from the seed, so a run (and a failure) can be replayed.
import { seededFaker } from '../shared/seeded-random.js';

/** A fresh seed for a run that was given none. */
export function newSeed(): number {
  return Math.floor(Math.random() * 2 ** 31);
}

// Each part of the run draws from its own stream, so adding a step elsewhere does not change its choices.
function derive(seed: number, label: string): number {
  let h = seed >>> 0;
  for (const ch of label) h = (Math.imul(h ^ ch.charCodeAt(0), 0x01000193) + 0x9e3779b9) >>> 0;
  return h;
}

export function createRandom(seed: number, label = '') {
  const faker = seededFaker(derive(seed, label));
  return {
    int: (min: number, max: number): number => faker.number.int({ min, max }),
    pick: <T>(items: readonly T[]): T => faker.helpers.arrayElement([...items]),
    uuid: (): string => faker.string.uuid(),
    /** A lowercase word of `length` letters. */
    word: (length: number): string => faker.string.alpha({ length, casing: 'lower' }),
    /** 24 lowercase hex characters, the document's id format. */
    objectId: (): string => faker.string.hexadecimal({ length: 24, casing: 'lower', prefix: '' }),
  };
}

export type Random = ReturnType<typeof createRandom>;
