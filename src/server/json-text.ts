/** Whether a value and everything in it is frozen, so that its JSON text can never change. */
function isDeepFrozen(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return true;
  if (!Object.isFrozen(value)) return false;
  for (const item of Array.isArray(value) ? value : Object.values(value)) if (!isDeepFrozen(item)) return false;
  return true;
}

export interface JsonText {
  /** The bytes of `JSON.stringify(body)` (UTF-8), reusing those of deep-frozen array items seen before. */
  (body: unknown): Buffer;
  /** How many item texts are kept. */
  readonly cached: number;
}

const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');

/**
 * JSON text of response bodies, as bytes. The event log hands out deep-frozen records that
 * never change (an update replaces the record), and writing a page of 50 of them was most of
 * the time of a request (CPU profile), so the UTF-8 text of each such record is kept and
 * reused, and a page is one copy of kept bytes (no string to encode on the way to the socket).
 * An item is checked once, when first seen (a frozen object stays frozen); at most `maxItems`
 * texts are kept (40 pages of 50), the oldest dropped first, so memory stays bounded however
 * much is read. The bound is small on purpose: a kept text also keeps its record alive after
 * an update replaced it, and a soak of many payload updates showed the memory that costs.
 */
export function createJsonText(maxItems = 2_000): JsonText {
  const texts = new Map<object, Buffer>();
  const itemBytes = (item: unknown): Buffer => {
    if (item === null || typeof item !== 'object') return Buffer.from(JSON.stringify(item) ?? 'null');
    let bytes = texts.get(item);
    if (bytes === undefined) {
      bytes = Buffer.from(JSON.stringify(item));
      if (isDeepFrozen(item)) {
        if (texts.size >= maxItems) texts.delete(texts.keys().next().value as object);
        texts.set(item, bytes);
      }
    }
    return bytes;
  };
  const jsonText = (body: unknown): Buffer => {
    if (!Array.isArray(body)) return Buffer.from(JSON.stringify(body) ?? '');
    const parts: Buffer[] = [OPEN];
    let length = OPEN.length + CLOSE.length;
    body.forEach((item, i) => {
      const bytes = itemBytes(item);
      if (i > 0) {
        parts.push(COMMA);
        length += COMMA.length;
      }
      parts.push(bytes);
      length += bytes.length;
    });
    parts.push(CLOSE);
    return Buffer.concat(parts, length);
  };
  return Object.defineProperty(jsonText, 'cached', { get: () => texts.size }) as JsonText;
}
