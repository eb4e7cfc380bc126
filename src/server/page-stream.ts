import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { arrayTextPart, type ItemText } from './json-text.js';

/**
 * How many bytes of text a chunk of a streamed page holds at least (the last may hold less):
 * about a hundred event log records, a few milliseconds of work between two turns of the
 * event loop.
 */
export const PAGE_CHUNK_BYTES = 64 * 1024;

/** The pages streamed and still referenced, for the journal's head of their text (streamedPageHead). */
const streamed = new WeakMap<object, { readonly items: readonly unknown[]; readonly itemText: ItemText }>();

/**
 * The array's text in chunks of at least `chunkBytes` (the last may be shorter), each made only
 * when asked for, with a turn of the event loop between two: other requests are served meanwhile.
 */
async function* chunksOf(items: readonly unknown[], itemText: ItemText, chunkBytes: number): AsyncGenerator<Buffer, void, undefined> {
  for (let from = 0; from <= items.length; ) {
    const part = arrayTextPart(items, itemText, from, chunkBytes);
    from = part.next;
    yield part.bytes;
    if (from <= items.length) await nextTurn();
  }
}

/**
 * A page's JSON text as a stream, for an answer too long to make at once: its bytes are those
 * json-text writes for the same page, made a chunk at a time as the client reads them. The
 * stream holds at most about a chunk past its high-water mark, so a slow reader holds a chunk
 * or two in memory, not the page; the chunks stop being made when the stream is destroyed (the
 * client went away). The items must not change while it is read: the event log and block log
 * hand out frozen records, and a page is an array of its own.
 */
export function pageStream(items: readonly unknown[], itemText: ItemText, chunkBytes = PAGE_CHUNK_BYTES): Readable {
  const stream = Readable.from(chunksOf(items, itemText, chunkBytes), { objectMode: false, highWaterMark: chunkBytes });
  streamed.set(stream, { items, itemText });
  return stream;
}

/**
 * The head of a streamed page's text, at most `maxBytes` (a copy), and whether it is the whole
 * text; undefined for any other payload. Made apart from the stream (a few records' text), as
 * the journal keeps an answer before its body is written.
 */
export function streamedPageHead(payload: unknown, maxBytes: number): { readonly bytes: Buffer; readonly whole: boolean } | undefined {
  const page = payload !== null && typeof payload === 'object' ? streamed.get(payload) : undefined;
  if (page === undefined) return undefined;
  const { bytes, next } = arrayTextPart(page.items, page.itemText, 0, maxBytes + 1);
  return next > page.items.length && bytes.length <= maxBytes ? { bytes, whole: true } : { bytes: Buffer.from(bytes.subarray(0, maxBytes)), whole: false };
}
