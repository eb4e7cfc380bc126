// Replaces many literal strings in a text in one pass. A run knows a few thousand spellings of
// its secrets (each in two layers of encoding, see secrets.ts), most of them base64-like with no
// common first character; one regular expression of them all tries every spelling at every
// position of the text, which costs time in proportion to their number. Indexed by their first
// characters, each position of the text is looked up once and only the few spellings sharing its
// prefix are compared: the work grows with the text, not with the number of spellings.

/** Length of the prefix spellings are indexed by; shorter spellings are compared at every position. */
const KEY = 4;

/**
 * A function that replaces every occurrence of any of the strings with `replacement`, scanning
 * left to right and taking, at each position, the longest string that starts there (a secret that
 * contains another is masked whole), as a regular expression of them, longest first, would.
 */
export function literalMasker(strings: Iterable<string>, replacement: string): (text: string) => string {
  const byPrefix = new Map<string, string[]>();
  const short: string[] = [];
  for (const s of [...new Set(strings)].filter(Boolean).sort((a, b) => b.length - a.length)) {
    if (s.length < KEY) {
      short.push(s);
      continue;
    }
    const key = s.slice(0, KEY);
    const list = byPrefix.get(key);
    if (list) list.push(s);
    else byPrefix.set(key, [s]);
  }
  if (byPrefix.size === 0 && short.length === 0) return (text) => text;
  return (text) => {
    let out = '';
    let copied = 0;
    const startingAt = (list: readonly string[] | undefined, i: number): string | undefined => {
      if (list) for (const s of list) if (text.startsWith(s, i)) return s;
      return undefined;
    };
    for (let i = 0; i < text.length; ) {
      const found = startingAt(byPrefix.get(text.slice(i, i + KEY)), i) ?? startingAt(short, i);
      if (found === undefined) {
        i += 1;
        continue;
      }
      out += text.slice(copied, i) + replacement;
      i += found.length;
      copied = i;
    }
    return copied === 0 ? text : out + text.slice(copied);
  };
}
