/** Whether a value and everything in it is frozen, so that its JSON text can never change. */
function isDeepFrozen(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return true;
  if (!Object.isFrozen(value)) return false;
  for (const item of Array.isArray(value) ? value : Object.values(value)) if (!isDeepFrozen(item)) return false;
  return true;
}

export interface JsonText {
  /** `JSON.stringify(body)`, reusing the text of deep-frozen array items seen before. */
  (body: unknown): string;
  /** How many item texts are kept. */
  readonly cached: number;
}

/**
 * JSON text of response bodies. The event log hands out deep-frozen records that never change
 * (an update replaces the record), and writing a page of 50 of them was most of the time of a
 * request (CPU profile), so the text of each such record is kept and reused. An item is
 * checked once, when first seen (a frozen object stays frozen); at most `maxItems` texts are
 * kept, the oldest dropped first, so memory stays bounded however many records are read.
 */
export function createJsonText(maxItems = 20_000): JsonText {
  const texts = new Map<object, string>();
  const itemText = (item: unknown): string => {
    if (item === null || typeof item !== 'object') return JSON.stringify(item) ?? 'null';
    let text = texts.get(item);
    if (text === undefined) {
      text = JSON.stringify(item);
      if (isDeepFrozen(item)) {
        if (texts.size >= maxItems) texts.delete(texts.keys().next().value as object);
        texts.set(item, text);
      }
    }
    return text;
  };
  const jsonText = (body: unknown): string => (Array.isArray(body) ? `[${body.map(itemText).join(',')}]` : JSON.stringify(body));
  return Object.defineProperty(jsonText, 'cached', { get: () => texts.size }) as JsonText;
}
