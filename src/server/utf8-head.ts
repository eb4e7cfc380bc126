/**
 * A copy of the head of UTF-8 `bytes`, at most `max` bytes, cut before a character that would
 * not fit whole: a cut inside one would read back as U+FFFD. Only the head is copied (a view of
 * it would keep the whole body alive), and only up to three bytes are looked at to find the cut.
 */
export function utf8Head(bytes: Buffer, max: number): Buffer {
  if (bytes.length <= max) return Buffer.from(bytes);
  let end = max;
  // The byte after the head continues a character (10xxxxxx): the head ends before its first byte.
  while (end > 0 && end > max - 3 && (bytes[end]! & 0xc0) === 0x80) end--;
  if ((bytes[end]! & 0xc0) === 0x80) end = max; // not UTF-8 there: cut at the count
  return Buffer.from(bytes.subarray(0, end));
}
