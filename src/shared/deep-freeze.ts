/** Freezes a JSON-like value and everything in it: what the store hands out cannot change what it holds, and snapshots and seeds share records safely. */
export function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const item of Object.values(value)) deepFreeze(item);
  return value;
}
