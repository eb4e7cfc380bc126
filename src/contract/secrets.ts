// Secrets never reach a report: every credential the runner is given or sends, and the session
// ids, tokens and cookies a server issues it, is remembered here, in every spelling it may take,
// and masked wherever it appears. Only credentials: a value remembered here is cut out of every
// text of every report, so a server must not be able to make the runner remember what it likes.
import { literalMasker } from './literal-masker.js';
import { createOwnWords } from './own-words.js';
import { createRefusedMasks } from './refused-masks.js';
import { MASK, maskJsonText } from './secret-fields.js';
import { spellings } from './secret-spellings.js';
import type { SentRequest } from './types.js';

export { isSecretKey, maskJsonText, maskSecretFields } from './secret-fields.js';

export interface Secrets {
  /** A secret the runner was given or sends (a password, a token): masked in every spelling it may take. */
  add(value: string | undefined): void;
  /**
   * A credential a server chose (a session id, a token, a cookie the runner keeps and sends back,
   * a value a case captures as a credential): masked as `add` masks, unless it is too short to
   * be told from ordinary text.
   */
  addIssued(value: string | undefined): void;
  /** A login and password: the password, and `login:password` as a Basic header carries it in base64. */
  addCredentials(credentials: { readonly login: string; readonly password: string } | undefined): void;
  /** The credentials in a URL's userinfo: the password of `http://user:secret@host`, the user name of `http://token@host`. */
  addUrl(url: string | undefined): void;
  /**
   * Text the runner writes on its own (run/own-text.ts): no spelling of a value a server chose
   * that is found in it is masked, so a server cannot have the runner's own words cut out of a report.
   */
  ownText(text: string): void;
  /** How many values a server chose were not taken as masks, and why (refused-masks.ts); undefined when none. */
  refusedNote(): string | undefined;
  /** Replaces every known secret in a text. */
  mask(text: string): string;
  /** A request with its secrets masked: Authorization, Cookie, tokens in the query, passwords in the body. */
  maskRequest(request: SentRequest): SentRequest;
}

function maskHeader(name: string, value: string): string {
  const lower = name.toLowerCase();
  if (lower === 'authorization') return value.replace(/^(\S+)\s.*$/, `$1 ${MASK}`);
  if (lower === 'cookie') return value.replace(/=([^;]*)/g, `=${MASK}`);
  if (lower === 'x-csrf-token') return MASK;
  return value;
}

const MAX_MASK_DEPTH = 64;

/** Strings anywhere in a value (objects, arrays), mapped; the rest as it is. */
export function mapStrings(value: unknown, mask: (text: string) => string, depth = 0): unknown {
  if (typeof value === 'string') return mask(value);
  if (value === null || typeof value !== 'object') return value;
  // Report data is shallow; a hostile body nested deeper is cut off here rather than blow the stack.
  if (depth > MAX_MASK_DEPTH) return MASK;
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, mask, depth + 1));
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mapStrings(v, mask, depth + 1)]));
}

/** Secrets the runner was given (a password, a token) shorter than this would mask ordinary text ("1", an empty password). */
const MIN_GIVEN = 4;
/**
 * A value a server chose (a session id, a token, a cookie the runner keeps) shorter than this is
 * not a credential: masked, a server could otherwise have `PASSED`, `0` or `users` cut out of
 * every report, and it would be found inside ordinary text. Real session ids and tokens are far
 * longer. A token answered as a bare text (body-token.ts) and the credentials a run has seen
 * (credentials-seen.ts) are held to it too.
 */
export const MIN_ISSUED_CHARS = 8;

/**
 * Nor is a value a server chose that holds a space or a control character: real session ids and
 * tokens are one printable word, and a value of several could span a label of the report and
 * the server's text beside it.
 */
const NOT_ONE_WORD = /[\s\u0000-\u001f\u007f]/;

export function createSecrets(): Secrets {
  const added = new Set<string>();
  const known = new Set<string>();
  let masker: ((text: string) => string) | undefined;
  const mask = (text: string): string => {
    if (known.size === 0) return text;
    masker ??= literalMasker(known, MASK);
    return masker(text);
  };
  // A value the runner was given is masked in every spelling: it chose none of the runner's words.
  // A value a server chose is masked only in the spellings not found in the runner's own text (a
  // real credential's never are): masking the report's own words (a verdict, a check's name) would
  // hide them from the reader, and they are no secret. Masking only the text that came from the
  // exchanges instead would need every finding to keep the server's words apart from the runner's.
  const own = createOwnWords();
  const refused = createRefusedMasks();
  const remember = (value: string | undefined, least: number, issued: boolean): void => {
    if (!value || added.has(value)) return;
    if (value.length < least || (issued && NOT_ONE_WORD.test(value))) {
      if (issued) refused.add(value, value.length < least ? 'short' : 'words');
      return;
    }
    added.add(value);
    if (issued && own.holds(value)) refused.add(value, /^\d+$/.test(value) ? 'number' : 'own');
    for (const spelling of spellings(value)) if (!issued || !own.holds(spelling)) known.add(spelling);
    masker = undefined;
  };
  const add = (value: string | undefined): void => remember(value, MIN_GIVEN, false);
  return {
    add,
    addIssued: (value) => remember(value, MIN_ISSUED_CHARS, true),
    ownText: (text) => own.add(text),
    refusedNote: () => refused.note(),
    addCredentials(credentials) {
      if (!credentials) return;
      add(credentials.password);
      // What a Basic Authorization header carries, and what a server echoing it shows.
      if (credentials.password.length > 0) add(`${credentials.login}:${credentials.password}`);
    },
    addUrl(url) {
      if (!url) return;
      let parsed: URL;
      try {
        parsed = new URL(url);
      } catch {
        return;
      }
      const decode = (text: string): string => {
        try {
          return decodeURIComponent(text);
        } catch {
          return text;
        }
      };
      // Without a password, the user name is the credential (a token some gateways take in its place).
      if (!parsed.password) {
        add(parsed.username);
        add(decode(parsed.username));
        return;
      }
      add(parsed.password);
      this.addCredentials({ login: decode(parsed.username), password: decode(parsed.password) });
    },
    mask,
    maskRequest(request) {
      const url = new URL(request.url);
      for (const name of ['api-token', 'auth-token']) if (url.searchParams.has(name)) url.searchParams.set(name, MASK);
      const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k, mask(maskHeader(k, v))]));
      return {
        method: request.method,
        url: mask(url.href.replace(/%2A%2A%2A/g, MASK)),
        headers,
        ...(request.body === undefined ? {} : { body: mask(maskJsonText(request.body)) }),
      };
    },
  };
}
