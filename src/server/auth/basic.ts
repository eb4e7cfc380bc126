export interface BasicCredentials {
  readonly login: string;
  readonly password: string;
}

const BASIC = /^basic +([A-Za-z0-9+/]+={0,2}) *$/i;
/** Headers parsed lately. A Basic client sends the same header on every request, and both the limiter and the guard read it. */
const recent = new Map<string, BasicCredentials | undefined>();
const MAX_RECENT = 1_000;

function parse(header: string): BasicCredentials | undefined {
  const encoded = BASIC.exec(header)?.[1];
  if (encoded === undefined) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  return Object.freeze({ login: decoded.slice(0, colon), password: decoded.slice(colon + 1) });
}

/** The login and password of an `Authorization: Basic …` header, or undefined when it is malformed. */
export function parseBasic(header: string): BasicCredentials | undefined {
  if (recent.has(header)) return recent.get(header);
  const credentials = parse(header);
  // Bounded: a flood of different headers empties it rather than growing it.
  if (recent.size >= MAX_RECENT) recent.clear();
  recent.set(header, credentials);
  return credentials;
}
