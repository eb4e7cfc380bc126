/** Problems with a dotted field path such as `payload.trapOid`, or undefined when it is usable. */
export function fieldPathProblem(path: string): string | undefined {
  if (path.length === 0) return 'must not be empty';
  const segments = path.split('.');
  if (segments.some((s) => s.length === 0)) return 'must be dot-separated field names, none empty';
  if (segments.some((s) => s.startsWith('$'))) return 'field names must not start with "$"';
  if (segments.some((s) => FORBIDDEN_SEGMENTS.has(s))) return 'must not name __proto__, constructor or prototype';
  return undefined;
}

const FORBIDDEN_SEGMENTS = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * The value at a dotted path as MongoDB reads it for sorting: own properties only; a digit segment
 * indexes an array, any other gathers that field of each element that has it.
 */
export function valueAtPath(root: unknown, segments: readonly string[], from = 0): unknown {
  let value: unknown = root;
  for (let i = from; i < segments.length; i++) {
    const segment = segments[i] as string;
    if (Array.isArray(value)) {
      if (/^[0-9]+$/.test(segment)) {
        value = value[Number(segment)];
        continue;
      }
      return value.flatMap((item) => {
        const v = valueAtPath(item, segments, i);
        return v === undefined ? [] : v;
      });
    }
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, segment)) return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}
