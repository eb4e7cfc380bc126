/**
 * Freezes a JSON-like value and everything inside it. Stored records are frozen so that what
 * the store hands out cannot change what it holds; updates replace records instead
 * (copy-on-write), which also lets a snapshot or the seed share record objects safely.
 */
export function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  Object.freeze(value);
  if (Array.isArray(value)) {
    for (const item of value) deepFreeze(item);
  } else {
    for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  }
  return value;
}
