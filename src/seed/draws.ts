import type { Faker } from '@faker-js/faker';
// The English entry point alone: the package's main one loads every locale, which took most
// of the fake's start-up (about half a second) for data that only ever uses English.
import { faker as english } from '@faker-js/faker/locale/en';
import { seededFaker } from '../shared/seeded-random.js';

/** The faker of the seed generators: English words (names, logins), every value from `seed`. */
export function englishFaker(seed: number): Faker {
  return seededFaker(seed, english.rawDefinitions);
}

/** Checks the options shared by the seed generators; throws a RangeError naming the bad one. */
export function checkWindow(options: { count: number; endTime: number; spanMs: number; seed: number }): void {
  const { count, endTime, spanMs, seed } = options;
  if (!Number.isSafeInteger(seed)) throw new RangeError(`seed must be an integer, not ${seed}`);
  if (!Number.isSafeInteger(count) || count < 0) throw new RangeError(`count must be a non-negative integer, not ${count}`);
  if (!Number.isSafeInteger(spanMs) || spanMs < 0) throw new RangeError(`spanMs must be a non-negative integer, not ${spanMs}`);
  if (!Number.isSafeInteger(endTime) || endTime < spanMs) {
    throw new RangeError(`endTime must be an integer timestamp in ms, at least spanMs (${spanMs}), not ${endTime}`);
  }
}

/**
 * `count` timestamps spread over [endTime - spanMs, endTime], in order: the i-th falls at a
 * random point of the i-th of `count` equal slices, so equal timestamps happen only when
 * slices are shorter than a millisecond.
 */
export function spreadTimestamps(faker: Faker, count: number, endTime: number, spanMs: number): Float64Array {
  const start = endTime - spanMs;
  const slice = count === 0 ? 0 : spanMs / count;
  const out = new Float64Array(count);
  for (let i = 0; i < count; i++) out[i] = Math.min(endTime, start + Math.floor((i + faker.number.float()) * slice));
  return out;
}
