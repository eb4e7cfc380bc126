// The credentials in answers: which scheme each way of authenticating uses, the values the
// document marks `x-secret` (masked from then on), and whose each token and session id is.
import type { AuthMode, ReceivedResponse, Exchange } from '../types.js';
import { MIN_ISSUED_CHARS, type Secrets } from '../../shared/redaction/secret-values.js';
import { documentedResponse, markedValues, type Operation, type Spec } from '../../spec/index.js';
import { isSchemaNode } from '../../spec/schema-branches.js';
import { MAX_KEPT_COOKIES } from './api-client.js';

/** The ways of authenticating with each security scheme of the document: valid first, then the deliberately wrong ones. */
const MODES = {
  basicAuth: ['basic', 'wrong-basic', 'wrong-password', 'wrong-empty-password'],
  sessionCookie: ['session', 'wrong-session', 'wrong-ended-session'],
  apiToken: ['token', 'wrong-token', 'wrong-revoked-token'],
  authTokenQuery: ['auth-token', 'wrong-auth-token', 'wrong-revoked-auth-token'],
} as const;

export type AuthModeOfScheme = (typeof MODES)[keyof typeof MODES][number];

/** The parameter or cookie name of an apiKey scheme of the document (`sid` for the session cookie). */
export const schemeKey = (spec: Spec, scheme: string): string => String((spec.document.components?.securitySchemes?.[scheme] as { name?: string } | undefined)?.name ?? '');

/** The security scheme an auth mode uses; undefined for none. */
export const schemeOf = (auth: AuthMode): string | undefined => Object.keys(MODES).find((scheme) => (MODES[scheme as keyof typeof MODES] as readonly string[]).includes(auth));

export const isWrongCredentials = (auth: AuthMode): boolean => auth.startsWith('wrong-');

export const authModesOf = (scheme: string): readonly AuthModeOfScheme[] => MODES[scheme as keyof typeof MODES] ?? [];

// One printable word: no spaces, so an HTML page or a sentence is never taken for a token.
const BARE_TOKEN = new RegExp(`^[A-Za-z0-9._~+/=-]{${MIN_ISSUED_CHARS},512}$`);

export function bodyToken(response: ReceivedResponse | undefined): string | undefined {
  if (!response) return undefined;
  if (typeof response.json === 'string') return response.json;
  if (response.json !== undefined) return undefined;
  const text = response.body.trim();
  return BARE_TOKEN.test(text) ? text : undefined;
}

// The values the document marks `x-secret` in the response documented for the status answered are
// an answer's credentials. A field that merely bears a credential's name holds whatever word the
// server chose: masked, that word would be cut out of every report.
// Deeper than any schema of this API; a value nested further is not read.
const MAX_DEPTH = 16;
/** Most values read of one answer: each is a mask every report text is matched against. */
const MAX_VALUES = 20;

/** The marked values of an answer with their places (`/field/0`, `` for the body itself): where the document lets a credential be. */
export function markedPlaces(operation: Operation, status: number, body: unknown): { readonly path: string; readonly value: string }[] {
  const schema = documentedResponse(operation, status)?.content?.['application/json']?.schema;
  if (!isSchemaNode(schema)) return [];
  const found: { path: string; value: string }[] = [];
  // Only a string can be a credential sent back; places too deep are not read.
  for (const { kind, path, value } of markedValues(body, schema, { mark: 'x-secret', maxDepth: MAX_DEPTH })) {
    if (kind === 'marked' && typeof value === 'string') found.push({ path: path.map((key) => `/${key}`).join(''), value });
    if (found.length >= MAX_VALUES) break;
  }
  return found;
}

/** The marked values of an answer as the runner learns tokens from it: its JSON, else its body as a bare token. */
export function answerSecrets(operation: Operation, response: ReceivedResponse): string[] {
  return markedPlaces(operation, response.status, response.json ?? bodyToken(response)).map((place) => place.value);
}

/** The answer's Set-Cookie lines. */
export const setCookieLines = (exchange: Exchange): string[] => {
  const set = exchange.response?.headers['set-cookie'];
  return Array.isArray(set) ? set : set ? [set] : [];
};

// Masked from now on: the cookies the runner keeps (each a pattern every report text is matched
// against, so at most MAX_KEPT_COOKIES), the token or session id 4.1 and 4.3 answer, the marked values.
/** `cookies`: the Set-Cookie lines of the answer that the runner keeps (keepCookies) or that are the API's own. */
export function rememberIssued(secrets: Secrets, operation: Operation, exchange: Exchange, cookies: readonly string[]): void {
  const r = exchange.response;
  if (!r) return;
  for (const c of cookies.slice(0, MAX_KEPT_COOKIES)) secrets.addIssued(/^[^=]+=([^;]*)/.exec(c)?.[1]);
  if (exchange.operationId === 'createAuthToken' || exchange.operationId === 'createSession') secrets.addIssued(bodyToken(r));
  for (const { value } of markedPlaces(operation, r.status, r.json)) secrets.addIssued(value);
}

/** The administrator's token as its record shows it (no --token): the one value the document marks there, else none. */
export function recordToken(spec: Spec, me: Exchange): string | undefined {
  const response = me.response;
  if (!response) return undefined;
  const marked = markedPlaces(spec.operation(me.operationId), response.status, response.json).map((place) => place.value);
  return marked.length === 1 && marked[0] !== '' ? marked[0] : undefined;
}

type Json = Record<string, unknown>;

const TOKEN_PARAMETERS = ['api-token', 'auth-token'];

/** The `{id}` of an operation's path in a URL's path (createAuthToken: the user the token is for). */
function pathId(operation: Operation, pathname: string): string | undefined {
  const escaped = operation.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&');
  const id = new RegExp(`^${escaped.replace('{id}', '([^/]+)').replace(/\{[^}]+\}/g, '[^/]+')}$`).exec(pathname)?.[1];
  return id === undefined ? undefined : decodeURIComponent(id);
}

export function createCredentialsSeen(spec: Spec) {
  const owners = new Map<string, string | undefined>();
  const sessions = new Set<string>();
  const sessionCookie = schemeKey(spec, 'sessionCookie');
  const ownToken = (token: string | undefined, owner: string | undefined, authoritative: boolean): void => {
    if (!token || token.length < MIN_ISSUED_CHARS) return;
    if (authoritative || owners.get(token) === undefined) owners.set(token, owner);
  };
  // The record getCurrentUser answered is the user who asked, whatever the credentials.
  const recordOf = (exchange: Exchange): string | undefined => {
    const { response } = exchange;
    const json = response?.json as Json | undefined;
    const ok = response !== undefined && response.status >= 200 && response.status < 300;
    return ok && exchange.operationId === 'getCurrentUser' && typeof json?.id === 'string' ? json.id : undefined;
  };

  return {
    seen: {
      /** The id of the user a token belongs to, when known. */
      tokenOwner: (token: string): string | undefined => owners.get(token),
      /** A known API token that a text is or contains. */
      tokenIn: (text: string): string | undefined => [...owners.keys()].find((token) => text.includes(token)),
      /** A known session id that a text is or contains. */
      sessionIdIn: (text: string): string | undefined => [...sessions].find((id) => text.includes(id)),
      /** The id of the user the answer is about: the one its path names, else the record getCurrentUser answered. */
      subjectOf: (exchange: Exchange): string | undefined => pathId(spec.operation(exchange.operationId), new URL(exchange.request.url).pathname) ?? recordOf(exchange),
    },
    /** Learns from one exchange, before its checks run. */
    learn(exchange: Exchange): void {
      const response = exchange.response;
      if (!response) return;
      for (const cookie of setCookieLines(exchange)) {
        const [, name, value] = /^\s*([^=;\s]+)=([^;]*)/.exec(cookie) ?? [];
        if (name === sessionCookie && value && value.length >= MIN_ISSUED_CHARS) sessions.add(value);
      }
      const url = new URL(exchange.request.url);
      const recordId = recordOf(exchange);
      if (recordId !== undefined) {
        // A token that alone authenticated a request belongs to the user whose record came back.
        const sent = TOKEN_PARAMETERS.map((p) => url.searchParams.get(p)).find((t): t is string => t !== null);
        const alone = sent !== undefined && exchange.request.headers.authorization === undefined && exchange.request.headers.cookie === undefined;
        if (sent) ownToken(sent, alone ? recordId : undefined, alone);
      }
      const operation = spec.operation(exchange.operationId);
      // A bare text body (a token as text/plain) is read as the string the document describes.
      const marked = answerSecrets(operation, response);
      if (exchange.operationId === 'createSession') {
        for (const id of marked) if (id.length >= MIN_ISSUED_CHARS) sessions.add(id);
        return;
      }
      // Whose the token is: the user the path names (createAuthToken), else the one whose record
      // getCurrentUser answered. A token already known as a user's stays that user's: answered by
      // createAuthToken for another user, it is a reused token (token-issued-new).
      for (const token of marked) ownToken(token, pathId(operation, url.pathname) ?? recordId, false);
    },
  };
}
