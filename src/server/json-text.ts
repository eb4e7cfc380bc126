/** Whether a value and everything in it is frozen, so that its JSON text can never change. */
function isDeepFrozen(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return true;
  if (!Object.isFrozen(value)) return false;
  for (const item of Array.isArray(value) ? value : Object.values(value)) if (!isDeepFrozen(item)) return false;
  return true;
}

export interface JsonText {
  /** The bytes of `JSON.stringify(body)` (UTF-8), reusing those of deep-frozen objects and array items seen before. */
  (body: unknown): Buffer;
  /** How many item texts are kept. */
  readonly cached: number;
  /** How many page texts are kept. */
  readonly pages: number;
  /**
   * The bytes of one array item as `body` writes it: its kept text, or one made afresh and not
   * kept (a stream of a whole log would push out the texts the usual small pages reuse).
   */
  readonly item: ItemText;
}

const OPEN = Buffer.from('[');
const COMMA = Buffer.from(',');
const CLOSE = Buffer.from(']');

/** The bytes of one item of an array. */
export type ItemText = (item: unknown) => Buffer;

/**
 * Part of the text of an array as JSON.stringify writes it (`[`, the items' texts with `,`
 * between, `]`): the items from `from` on (at least one) until the part holds `minBytes` or
 * the items end, when it ends with `]`. `next` is where the next part starts, past
 * `items.length` once the text is whole. With `minBytes` Infinity, the whole text.
 */
export function arrayTextPart(items: readonly unknown[], itemText: ItemText, from: number, minBytes: number): { readonly bytes: Buffer; readonly next: number } {
  const parts: Buffer[] = from === 0 ? [OPEN] : [];
  let length = from === 0 ? OPEN.length : 0;
  let i = from;
  for (; i < items.length && (i === from || length < minBytes); i++) {
    if (i > 0) {
      parts.push(COMMA);
      length += COMMA.length;
    }
    const bytes = itemText(items[i]);
    parts.push(bytes);
    length += bytes.length;
  }
  if (i === items.length) {
    parts.push(CLOSE);
    length += CLOSE.length;
    i++;
  }
  return { bytes: Buffer.concat(parts, length), next: i };
}

/** A page of kept items and its whole text. */
interface Page {
  readonly items: readonly unknown[];
  readonly bytes: Buffer;
}

const sameItems = (a: readonly unknown[], b: readonly unknown[]) => a.length === b.length && a.every((item, i) => item === b[i]);

/**
 * JSON text of response bodies, as bytes. The event log hands out deep-frozen records that
 * never change (an update replaces the record), and writing a page of 50 of them was most of
 * the time of a request (CPU profile), so the UTF-8 text of each such record is kept and
 * reused. An item is checked once, when first seen (a frozen object stays frozen); at most
 * `maxItems` texts are kept (40 pages of 50), the oldest dropped first, so memory stays
 * bounded however much is read. The bound is small on purpose: a kept text also keeps its
 * record alive after an update replaced it, and a soak of many payload updates showed the
 * memory that costs.
 *
 * Joining the texts of a page was then the largest cost left (a 32 KB copy per request), so
 * the text of a whole page of kept items is kept too, found by its first item and reused when
 * the same items come in the same order: the same frozen items always make the same text.
 * At most `maxPageBytes` of page texts are kept, the oldest dropped first.
 */
export function createJsonText(maxItems = 2_000, maxPageBytes = 8 * 1024 * 1024): JsonText {
  const texts = new Map<object, Buffer>();
  const pages = new Map<object, Page>();
  let pageBytes = 0;
  /** The item's text, and whether it is kept. */
  const itemBytes = (item: unknown): [Buffer, boolean] => {
    if (item === null || typeof item !== 'object') return [Buffer.from(JSON.stringify(item) ?? 'null'), false];
    let bytes = texts.get(item);
    if (bytes !== undefined) return [bytes, true];
    bytes = Buffer.from(JSON.stringify(item));
    if (!isDeepFrozen(item)) return [bytes, false];
    if (texts.size >= maxItems) texts.delete(texts.keys().next().value as object);
    texts.set(item, bytes);
    return [bytes, true];
  };
  const keepPage = (items: readonly unknown[], bytes: Buffer) => {
    if (bytes.length > maxPageBytes) return;
    const first = items[0] as object;
    const replaced = pages.get(first);
    if (replaced) {
      pages.delete(first);
      pageBytes -= replaced.bytes.length;
    }
    for (const [key, page] of pages) {
      if (pageBytes + bytes.length <= maxPageBytes) break;
      pages.delete(key); // Maps iterate oldest first
      pageBytes -= page.bytes.length;
    }
    pages.set(first, { items: [...items], bytes });
    pageBytes += bytes.length;
  };
  const arrayText = (body: readonly unknown[]): Buffer => {
    const first = body[0];
    const page = first !== null && typeof first === 'object' ? pages.get(first) : undefined;
    if (page && sameItems(page.items, body)) return page.bytes;
    let allKept = body.length > 0;
    const keptOrNot = (item: unknown) => {
      const [bytes, kept] = itemBytes(item);
      allKept &&= kept;
      return bytes;
    };
    const text = arrayTextPart(body, keptOrNot, 0, Infinity).bytes;
    // Only pages whose items are all kept: their texts are still known to be right.
    if (allKept && body.length <= maxItems) keepPage(body, text);
    return text;
  };
  const jsonText = (body: unknown): Buffer => {
    if (body === null || typeof body !== 'object') return Buffer.from(JSON.stringify(body) ?? '');
    // A deep-frozen object (e.g. a user's record) is kept like an array item.
    return Array.isArray(body) ? arrayText(body) : itemBytes(body)[0];
  };
  const item = (value: unknown): Buffer => (value !== null && typeof value === 'object' ? texts.get(value) : undefined) ?? Buffer.from(JSON.stringify(value) ?? 'null');
  Object.defineProperty(jsonText, 'item', { value: item });
  Object.defineProperty(jsonText, 'pages', { get: () => pages.size });
  return Object.defineProperty(jsonText, 'cached', { get: () => texts.size }) as JsonText;
}
