/**
 * A copy of the head of `text`, at most `max` UTF-16 code units, never ending in the first half of
 * a surrogate pair (it would read back as U+FFFD); a copy, as a slice would keep the whole text alive.
 */
export function textHead(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return Buffer.from(text.slice(0, end)).toString();
}
