/**
 * The headers a request may carry once, by their length and lower-case name, with the name its
 * refusal shows. Node keeps the first of each and drops the others, so a proxy in front that
 * reads another one would route (Host), authenticate (Authorization) or parse (Content-Type)
 * another request than the fake's checks looked at; the fake's rule that every credential sent
 * must be valid would also miss a second Authorization.
 */
const SINGLE = new Map<string, string>([
  ['host', 'Host'],
  ['authorization', 'Authorization'],
  ['content-type', 'Content-Type'],
]);
const LENGTHS = new Set([...SINGLE.keys()].map((name) => name.length));

/** The name of the first header of SINGLE that a request sends more than once, or undefined. */
export function repeatedHeader(rawHeaders: readonly string[]): string | undefined {
  let seen: string[] | undefined;
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const raw = rawHeaders[i]!;
    // Most names are none of the three: their length tells it without lower-casing them.
    if (!LENGTHS.has(raw.length)) continue;
    const name = raw.toLowerCase();
    if (!SINGLE.has(name)) continue;
    if (seen?.includes(name)) return SINGLE.get(name);
    (seen ??= []).push(name);
  }
  return undefined;
}
