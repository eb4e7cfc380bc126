// Everything generated comes from the seed, so a run (and a failure) can be replayed.
import { seededFaker } from '../shared/seeded-random.js';

export interface Random {
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  /** `count` distinct items in random order. */
  sample<T>(items: readonly T[], count: number): T[];
  uuid(): string;
  /** A lowercase word of `length` letters. */
  word(length: number): string;
  /** 24 lowercase hex characters, the document's id format. */
  objectId(): string;
}

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

export function createRandom(seed: number, label = ''): Random {
  const faker = seededFaker(derive(seed, label));
  return {
    int: (min, max) => faker.number.int({ min, max }),
    pick: (items) => faker.helpers.arrayElement(items as unknown[]) as never,
    sample: (items, count) => faker.helpers.arrayElements(items as unknown[], Math.min(count, items.length)) as never,
    uuid: () => faker.string.uuid(),
    word: (length) => faker.string.alpha({ length, casing: 'lower' }),
    objectId: () => faker.string.hexadecimal({ length: 24, casing: 'lower', prefix: '' }),
  };
}
