// No secret reaches a recording. Every string of every record is masked for the secrets the run
// knows (the password, `login:password` as Basic carries it, tokens, session and csrf ids, in
// every spelling) and for credentials a text may carry of anyone: token, password and session
// parameters of a URL's query and the password of a URL's userinfo.
import type { Secrets } from '../contract/secrets.js';

const MASK = '***';
const QUERY_SECRET = /([?&;](?:api-token|auth-token|token|access_token|password|passwd|pwd|sid|session|csrf)=)[^&#\s"']*/gi;
const USERINFO_PASSWORD = /(\b[a-z][a-z0-9+.-]*:\/\/[^\s/:@]*:)[^\s/@]+@/gi;
const MAX_DEPTH = 64;

export interface Scrubber {
  record<T>(value: T): T;
  /** How many strings had something masked. */
  readonly masked: number;
}

export function createScrubber(secrets: Secrets): Scrubber {
  let masked = 0;
  const text = (value: string): string => {
    const out = secrets.mask(value.replace(QUERY_SECRET, `$1${MASK}`).replace(USERINFO_PASSWORD, `$1${MASK}@`));
    if (out !== value) masked += 1;
    return out;
  };
  const walk = (value: unknown, depth: number): unknown => {
    if (typeof value === 'string') return text(value);
    if (value === null || typeof value !== 'object') return value;
    // Records the document accepts are shallow; one nested deeper than this is cut, not walked.
    if (depth > MAX_DEPTH) return MASK;
    if (Array.isArray(value)) return value.map((v) => walk(v, depth + 1));
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [text(k), walk(v, depth + 1)]));
  };
  return {
    record: <T>(value: T): T => walk(value, 0) as T,
    get masked() {
      return masked;
    },
  };
}
