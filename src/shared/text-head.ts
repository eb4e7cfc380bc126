/**
 * A copy of the head of `text`, at most `max` UTF-16 code units, cut before a character that
 * would not fit whole: a head ending in the first half of a surrogate pair (an emoji) would read
 * back as U+FFFD. Only the head is copied (a slice would keep the whole text alive), and only the
 * last code unit of the head is looked at to find the cut.
 */
export function textHead(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max;
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end--;
  return Buffer.from(text.slice(0, end)).toString();
}
