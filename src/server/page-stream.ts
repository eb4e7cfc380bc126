import { Readable } from 'node:stream';
import { arrayTextPart, type ItemText } from './json-text.js';
import { utf8Head } from './utf8-head.js';

/**
 * How many bytes of text a chunk of a streamed page holds at least (the last may hold less):
 * about a hundred event log records, a few milliseconds of work between two turns of the
 * event loop.
 */
export const PAGE_CHUNK_BYTES = 64 * 1024;

type Part = ReturnType<typeof arrayTextPart>;

/**
 * A streamed page. Its first chunk is made once, by whichever asks first: the journal (for the
 * head of the text, before the body is written) or the stream; the stream then lets it go.
 * `items` is the stream's own copy of the page (references only), whose items past the first
 * chunk's are let go once their text is made.
 */
interface StreamedPage {
  readonly items: unknown[];
  readonly itemText: ItemText;
  readonly chunkBytes: number;
  first: Part | undefined;
}

/** The pages streamed and still referenced, for the journal's head of their text (streamedPageHead). */
const streamed = new WeakMap<object, StreamedPage>();

const firstChunk = (page: StreamedPage): Part => (page.first ??= arrayTextPart(page.items, page.itemText, 0, page.chunkBytes));

/**
 * The array's text in chunks of at least `chunkBytes` (the last may be shorter), each made only
 * when the stream asks for it, on a later turn of the event loop: other requests and new
 * connections are served between chunks. The items of a chunk
 * are let go once it is made (all but the first chunk's, which the journal may still ask for), so
 * a slow reader holds only the records it has not been sent yet: after a reset, records no longer
 * in the store are freed as the page goes out, not when it ends.
 */
function chunkStream(page: StreamedPage): Readable {
  const { items, itemText, chunkBytes } = page;
  const length = items.length;
  let from = 0;
  let timer: NodeJS.Immediate | undefined;
  const makeChunk = () => {
    timer = undefined;
    if (stream.destroyed) return;
    try {
      const part = from === 0 ? firstChunk(page) : arrayTextPart(items, itemText, from, chunkBytes);
      if (from > 0) items.fill(undefined, from, Math.min(part.next, length));
      page.first = undefined;
      from = part.next;
      stream.push(part.bytes);
      if (from > length) stream.push(null);
    } catch (error) {
      stream.destroy(error as Error);
    }
  };
  const stream: Readable = new Readable({
    highWaterMark: chunkBytes,
    read() {
      timer ??= setImmediate(makeChunk);
    },
    destroy(error, done) {
      if (timer !== undefined) clearImmediate(timer);
      timer = undefined;
      done(error);
    },
  });
  return stream;
}

/**
 * A page's JSON text as a stream, for an answer too long to make at once: its bytes are those
 * json-text writes for the same page, made a chunk at a time as the client reads them. The
 * stream holds at most about a chunk past its high-water mark, so a slow reader holds a chunk
 * or two in memory, not the page; the chunks stop being made when the stream is destroyed (the
 * client went away). The items must not change while it is read: the event log and block log
 * hand out frozen records. The stream keeps a copy of the array (8 bytes an item), its own to let
 * go of, whoever else holds the page.
 */
export function pageStream(items: readonly unknown[], itemText: ItemText, chunkBytes = PAGE_CHUNK_BYTES): Readable {
  const page: StreamedPage = { items: items.slice(), itemText, chunkBytes, first: undefined };
  const stream = chunkStream(page);
  streamed.set(stream, page);
  return stream;
}

/**
 * The head of a streamed page's text, at most `maxBytes` (a copy), and whether it is the whole
 * text; undefined for any other payload. The journal keeps an answer before its body is
 * written: the head comes from the stream's first chunk, made then, when that chunk holds it
 * (a chunk is larger than the head the journal keeps), else apart.
 */
export function streamedPageHead(payload: unknown, maxBytes: number): { readonly bytes: Buffer; readonly whole: boolean } | undefined {
  const page = payload !== null && typeof payload === 'object' ? streamed.get(payload) : undefined;
  if (page === undefined) return undefined;
  const { bytes, next } = page.chunkBytes > maxBytes ? firstChunk(page) : arrayTextPart(page.items, page.itemText, 0, maxBytes + 1);
  return next > page.items.length && bytes.length <= maxBytes ? { bytes, whole: true } : { bytes: utf8Head(bytes, maxBytes), whole: false };
}
