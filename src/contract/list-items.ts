// The items of a JSON list counted without parsing it: in a body the runner cut off at its read
// limit or did not parse (past its bounds of depth and values), the commas at the top level show
// how many items came at least. One pass, no recursion, nothing kept.

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const OPEN = new Set([91, 123]);
const CLOSE = new Set([93, 125]);
const WHITESPACE = new Set([32, 9, 10, 13]);

/** Items of the top-level list in the bytes (a head of the body is enough), or undefined when they are no list. */
export function listItemsAtLeast(bytes: Uint8Array): number | undefined {
  let i = 0;
  while (i < bytes.length && WHITESPACE.has(bytes[i] ?? 0)) i++;
  if (bytes[i] !== 91) return undefined;
  let depth = 0;
  let ended = 0;
  let started = false;
  let inString = false;
  for (; i < bytes.length; i++) {
    const c = bytes[i] ?? 0;
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
      continue;
    }
    // An item has begun at its first byte at the top level (even if the body is cut inside it); a comma there ends it.
    if (depth === 1 && !started && !WHITESPACE.has(c) && c !== COMMA && !CLOSE.has(c)) started = true;
    if (c === QUOTE) inString = true;
    else if (OPEN.has(c)) depth++;
    else if (CLOSE.has(c)) depth--;
    else if (c === COMMA && depth === 1) {
      ended++;
      started = false;
    }
    if (depth === 0) break;
  }
  return ended + (started ? 1 : 0);
}
