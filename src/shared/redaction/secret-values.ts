// The one redaction module's masking for the runner and recordings: secret fields by name (a token,
// a password, a session id: secret-names.ts) and hash-shaped values in any JSON text, even cut off;
// and the credentials known by value (given to the kit, or issued to it by a server), each in
// every spelling a server may echo it in: as it is, percent- and form-encoded, JSON-escaped
// (`\u`-escaped too), base64 (of `login:password` as Basic carries it, too). Masking happens before
// any cut: a text cut off inside a spelling (`admin-passwor…`) has the cut-off part masked too.
import { isHashLike, isSecretName, REPORT_MASK } from './secret-names.js';
import { decoded, maskUrl } from './mask-url.js';
import { textHead } from '../text-head.js';

// A JSON string, whole or cut off at the end of the text, and after it a string value when it is a key.
const STRING = String.raw`"((?:[^"\\]|\\.)*)\\?("|$)`;
const STRING_OR_FIELD = new RegExp(String.raw`${STRING}(?:(\s*:\s*)${STRING})?`, 'g');

/** JSON text (or any text holding JSON, whole or cut off) with the string values of secret fields, and hash-like strings, replaced by `mask`. */
export function maskSecretFields(text: string, mask: string): string {
  return text.replace(STRING_OR_FIELD, (whole, key: string, keyEnd: string, colon: string | undefined, value: string | undefined, valueEnd: string | undefined) => {
    if (colon === undefined) return isHashLike(key) ? `"${mask}${keyEnd}` : whole;
    return isSecretName(key) || isHashLike(value ?? '') ? `"${key}"${colon}"${mask}${valueEnd ?? ''}` : whole;
  });
}

const MAX_DEPTH = 64;

/** Strings anywhere in a value (objects, arrays), mapped; the rest as it is. A value nested deeper than any output's is cut off, not walked. */
export function mapStrings(value: unknown, map: (text: string) => string, depth = 0): unknown {
  if (typeof value === 'string') return map(value);
  if (value === null || typeof value !== 'object') return value;
  if (depth > MAX_DEPTH) return map('');
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, map, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [map(k), mapStrings(v, map, depth + 1)]));
}

/** Secrets the kit was given shorter than this would mask ordinary text ("1", an empty password). */
const MIN_GIVEN = 4;
/** A value a server chose (a session id, a token) shorter than this is no credential: masked, a server could have `PASSED` or `users` cut out of every output. */
export const MIN_ISSUED_CHARS = 8;
const NOT_ONE_WORD = /[\s\u0000-\u001f\u007f]/;
/** The shortest head of a spelling masked where a text is cut off; heads longer than the longest are not looked for. */
const MIN_CUT = 6;
const MAX_CUT = 256;
// Where a text was cut: the ellipsis the kit writes after a cut.
const CUT = /…|\.\.\./g;

const lowerHex = (text: string): string => text.replace(/%[0-9A-F]{2}/g, (escape) => escape.toLowerCase());
const uEscaped = (text: string, which: RegExp, upper: boolean): string =>
  text.replace(which, (c) => {
    const hex = c.charCodeAt(0).toString(16).padStart(4, '0');
    return `\\u${upper ? hex.toUpperCase() : hex}`;
  });

/** The spellings a secret may take in a server's answer, an URL or a log. */
export function spellings(value: string): string[] {
  // JSON as JSON.stringify writes it, with `/` escaped, with every other character than ASCII `\u`-escaped, or every one but letters and digits.
  const json = JSON.stringify(value).slice(1, -1);
  const jsons = [json, json.replace(/\//g, '\\/')].flatMap((text) => [text, uEscaped(text, /[^\x20-\x7e]/g, false), uEscaped(text, /[^\x20-\x7e]/g, true)]);
  const jsonEscaped = [false, true].map((upper) => uEscaped(value, /[^A-Za-z0-9]/g, upper));
  const percent = [encodeURIComponent(value), encodeURI(value), new URLSearchParams({ v: value }).toString().slice(2)];
  const base64 = Buffer.from(value).toString('base64');
  return [...new Set([value, ...jsons, ...jsonEscaped, ...percent, ...percent.map(lowerHex), base64, base64.replace(/=+$/, ''), Buffer.from(value).toString('base64url')])];
}

// Masking looks this far past what is shown, so a secret that starts in the shown head is masked whole.
const MASK_MARGIN = 4096;

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A request as it was sent, to show masked (a report's curl line). */
export interface ShownRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
}

function maskHeader(name: string, value: string, mask: string): string {
  const lower = name.toLowerCase();
  if (lower === 'authorization' || lower === 'proxy-authorization') return value.replace(/^(\S+)\s.*$/, `$1 ${mask}`);
  if (lower === 'cookie') return value.replace(/=([^;]*)/g, `=${mask}`);
  return isSecretName(lower) ? mask : value;
}

export type Secrets = ReturnType<typeof createSecrets>;

/** The known secrets of one run of the runner, or one recording, masked by `mask`. */
export function createSecrets(mask = REPORT_MASK) {
  const added = new Set<string>();
  // Each spelling, and the shortest head of it that is masked where a text is cut off inside it.
  const known = new Map<string, number>();
  let pattern: RegExp | undefined;
  // Heads of spellings, to mask where a text is cut off inside one.
  let heads: Set<string> | undefined;
  let longest = 0;
  const remember = (value: string | undefined, issued: boolean, shortestHead = MIN_CUT): void => {
    if (!value || added.has(value)) return;
    if (value.length < (issued ? MIN_ISSUED_CHARS : MIN_GIVEN) || (issued && NOT_ONE_WORD.test(value))) return;
    added.add(value);
    for (const spelling of spellings(value)) known.set(spelling, Math.min(known.get(spelling) ?? Infinity, shortestHead));
    pattern = undefined;
    heads = undefined;
  };
  /** A secret the kit was given or sends (a password, a token). */
  const add = (value: string | undefined): void => remember(value, false);
  const maskCut = (text: string): string => {
    heads ??= new Set([...known].flatMap(([s, shortest]) => Array.from({ length: Math.max(0, Math.min(s.length, MAX_CUT + 1) - shortest) }, (_, i) => s.slice(0, shortest + i))));
    let out = text;
    for (const cut of [...text.matchAll(CUT)].reverse()) {
      const end = cut.index;
      for (let length = Math.min(longest, MAX_CUT, end); length >= MIN_CUT; length--) {
        if (heads.has(out.slice(end - length, end))) {
          out = `${out.slice(0, end - length)}${mask}${out.slice(end)}`;
          break;
        }
      }
    }
    return out;
  };
  /** The text with every spelling of every known secret, and the head of one where the text is cut off, replaced by the mask. */
  const maskText = (text: string): string => {
    if (known.size === 0) return text;
    if (pattern === undefined) {
      const sorted = [...known.keys()].sort((a, b) => b.length - a.length);
      longest = sorted[0]!.length;
      pattern = new RegExp(sorted.map(escapeRegExp).join('|'), 'g');
    }
    return maskCut(text.replace(pattern, mask));
  };
  /** A login and password: the password, and `login:password` as a Basic header carries it. */
  const addCredentials = (credentials: { readonly login: string; readonly password: string } | undefined): void => {
    if (!credentials) return;
    add(credentials.password);
    // Its head is the login, no secret: only a head that holds some of the password is masked.
    if (credentials.password.length > 0) remember(`${credentials.login}:${credentials.password}`, false, credentials.login.length + 2);
  };
  return {
    add,
    /** A credential a server chose (a session id, a token, a cookie): masked unless it is too short or not one word to tell from ordinary text. */
    addIssued: (value: string | undefined): void => remember(value, true),
    addCredentials,
    /** The credentials in a URL's userinfo: the password of `http://user:secret@host`, the user name of `http://token@host`. */
    addUrl(url: string | undefined): void {
      if (!url || !URL.canParse(url)) return;
      const parsed = new URL(url);
      // Without a password, the user name is the credential (a token some gateways take in its place).
      if (!parsed.password) {
        add(parsed.username);
        add(decoded(parsed.username, false));
        return;
      }
      add(parsed.password);
      addCredentials({ login: decoded(parsed.username, false), password: decoded(parsed.password, false) });
    },
    mask: maskText,
    /** The head of a body as a report shows it: secret fields and known secrets masked first, then cut to `max` characters with the length said. */
    shownHead(text: string, max: number): string {
      const masked = maskText(maskSecretFields(textHead(text, max + MASK_MARGIN), mask));
      return masked.length > max || text.length > max + MASK_MARGIN ? `${textHead(masked, max)}… (${text.length} characters)` : masked;
    },
    /** A request with its secrets masked: Authorization and Cookie values, secret query parameters and body fields, every known secret. */
    maskRequest(request: ShownRequest): ShownRequest {
      const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, maskText(maskHeader(k, v, mask))]));
      return {
        method: request.method,
        url: maskText(maskUrl(request.url, mask)),
        headers,
        ...(request.body === undefined ? {} : { body: maskText(maskSecretFields(request.body, mask)) }),
      };
    },
  };
}
