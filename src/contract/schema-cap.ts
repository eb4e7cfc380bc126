// What the runner's bounded validator left unjudged of an answer. Ajv reports every error of
// every record (tens of thousands for a megabyte of wrong records), and the checks compare
// errors with one another, so only the first errors and the first records are judged; a check
// says how many more there were instead of passing over them in silence.
import type { SchemaError } from '../spec/index.js';

/** Errors judged per answer at most: a few pages of wrong records, far more than a reader needs. */
export const MAX_SCHEMA_ERRORS = 200;

export interface LeftOut {
  /** Schema errors found but not passed on. */
  readonly errors: number;
  /** Items of a list that were not validated at all, and how many were. */
  readonly items: number;
  readonly checkedItems: number;
}

const leftOut = new WeakMap<object, LeftOut>();

/** What was left out of a list of errors (or of the problem that holds them), if anything. */
export function leftOutOf(key: object | undefined): LeftOut | undefined {
  return key ? leftOut.get(key) : undefined;
}

export function markLeftOut<T extends object>(key: T, what: LeftOut | undefined): T {
  if (what && (what.errors > 0 || what.items > 0)) leftOut.set(key, what);
  return key;
}

/** The index of the list item an error is in (`/12/agentId` is in item 12), or -1 at the root. */
export function itemOf(error: SchemaError): number {
  const match = /^\/(\d+)(?:\/|$)/.exec(error.instancePath);
  return match ? Number(match[1]) : -1;
}

/**
 * The first errors, cut before the item the cap falls in: Ajv reports a `oneOf` after the
 * errors of its branches, so a record cut in the middle would show both branches' errors
 * without the `oneOf` that says which one the record meant.
 */
export function firstErrors(errors: readonly SchemaError[], max = MAX_SCHEMA_ERRORS): SchemaError[] {
  if (errors.length <= max) return [...errors];
  const cutItem = itemOf(errors[max] as SchemaError);
  let end = max;
  if (cutItem >= 0) while (end > 0 && itemOf(errors[end - 1] as SchemaError) === cutItem) end--;
  return errors.slice(0, end > 0 ? end : max);
}
