/**
 * The headers a request may carry once: their lower-case names, and the names their refusals
 * show. Node keeps the first of each and drops the others, so a proxy in front that reads another
 * one would route (Host), authenticate (Authorization) or parse (Content-Type) another request
 * than the fake's checks looked at; the fake's rule that every credential sent must be valid
 * would also miss a second Authorization.
 */
const SINGLE = ['host', 'authorization', 'content-type'] as const;
const SHOWN = ['Host', 'Authorization', 'Content-Type'] as const;

/**
 * Whether a header name as sent is `name` (lower case) in any case, without making a lower-case
 * copy (every request passes here). A header name is a token: only its letters have cases, and
 * setting the 0x20 bit turns no other character of a token into a letter or a `-`.
 */
function sameName(sent: string, name: string): boolean {
  if (sent.length !== name.length) return false;
  if (sent === name) return true;
  for (let i = 0; i < name.length; i++) if ((sent.charCodeAt(i) | 0x20) !== name.charCodeAt(i)) return false;
  return true;
}

/** The name of the first header of SINGLE that a request sends more than once, or undefined. */
export function repeatedHeader(rawHeaders: readonly string[]): string | undefined {
  let seen = 0; // a bit for each name of SINGLE
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const sent = rawHeaders[i]!;
    for (let k = 0; k < SINGLE.length; k++) {
      if (!sameName(sent, SINGLE[k]!)) continue;
      if ((seen & (1 << k)) !== 0) return SHOWN[k];
      seen |= 1 << k;
      break;
    }
  }
  return undefined;
}
