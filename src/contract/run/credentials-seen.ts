// The credentials a run has seen, learned from its exchanges: API tokens (with the id of the
// user each belongs to, when known) and session ids. The no-sensitive-data check reads it to
// tell a caller's own credential from someone else's. A token is a value the document marks
// `x-secret` in the answer documented for the operation and status answered (marked-secrets.ts):
// a field that only bears a token's name is whatever word the server chose.
import type { Operation, Spec } from '../../spec/index.js';
import { answerSecrets } from '../client/marked-secrets.js';
import { MIN_ISSUED_CHARS } from '../../shared/redaction/secret-values.js';
import type { Actor, AuthMode, CredentialsSeen, Exchange, Parties } from '../types.js';

type Json = Record<string, unknown>;

const TOKEN_PARAMETERS = ['api-token', 'auth-token'];
/** The ways of authenticating with an actor's own credentials: an answer to them is that actor's. */
const OWN_AUTH = new Set<AuthMode>(['basic', 'session', 'token', 'auth-token']);

export interface CredentialsLearner {
  readonly seen: CredentialsSeen;
  /** Learns from one exchange, before its checks run. */
  learn(exchange: Exchange): void;
}

/** The `{id}` of an operation's path in a URL (createAuthToken: the user the token is for). */
function pathIdReader(operation: Operation): (pathname: string) => string | undefined {
  const names: string[] = [];
  const pattern = operation.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{([^}]+?)\\?\}/g, (_, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  const path = new RegExp(`^${pattern}$`);
  const at = names.indexOf('id');
  return (pathname) => {
    const id = at < 0 ? undefined : path.exec(pathname)?.[at + 1];
    return id === undefined ? undefined : decodeURIComponent(id);
  };
}

export function createCredentialsSeen(spec: Spec): CredentialsLearner {
  const owners = new Map<string, string | undefined>();
  const sessions = new Set<string>();
  // The user id of each actor, from the record getCurrentUser answered it.
  const callers = new Map<Actor, string>();
  const pathIds = new Map<string, (pathname: string) => string | undefined>();
  const sessionCookie = (spec.document.components?.securitySchemes?.sessionCookie as { name?: string } | undefined)?.name ?? 'sid';
  const ownToken = (token: string | undefined, owner: string | undefined, authoritative: boolean): void => {
    if (!token || token.length < MIN_ISSUED_CHARS) return;
    if (authoritative || owners.get(token) === undefined) owners.set(token, owner);
  };
  const pathId = (operation: Operation, pathname: string): string | undefined => {
    let read = pathIds.get(operation.operationId);
    if (!read) pathIds.set(operation.operationId, (read = pathIdReader(operation)));
    return read(pathname);
  };
  // The record getCurrentUser answered is the user who asked, whatever the credentials.
  const recordOf = (exchange: Exchange): string | undefined => {
    const { response } = exchange;
    const json = response?.json as Json | undefined;
    const ok = response !== undefined && response.status >= 200 && response.status < 300;
    return ok && exchange.operationId === 'getCurrentUser' && typeof json?.id === 'string' ? json.id : undefined;
  };
  const callerOf = (exchange: Exchange): string | undefined => (OWN_AUTH.has(exchange.auth) ? callers.get(exchange.actor) : undefined);
  const parties = (exchange: Exchange): Parties => {
    const caller = callerOf(exchange);
    const named = pathId(spec.operation(exchange.operationId), new URL(exchange.request.url).pathname);
    return { caller, subject: named ?? recordOf(exchange) ?? caller };
  };

  return {
    seen: {
      tokenOwner: (token) => owners.get(token),
      tokenIn: (text) => [...owners.keys()].find((token) => text.includes(token)),
      sessionIdIn: (text) => [...sessions].find((id) => text.includes(id)),
      parties,
    },
    learn(exchange) {
      const response = exchange.response;
      if (!response) return;
      const cookies = response.headers['set-cookie'];
      for (const cookie of Array.isArray(cookies) ? cookies : cookies ? [cookies] : []) {
        const [, name, value] = /^\s*([^=;\s]+)=([^;]*)/.exec(cookie) ?? [];
        if (name === sessionCookie && value && value.length >= MIN_ISSUED_CHARS) sessions.add(value);
      }
      const url = new URL(exchange.request.url);
      const recordId = recordOf(exchange);
      if (recordId !== undefined) {
        if (OWN_AUTH.has(exchange.auth)) callers.set(exchange.actor, recordId);
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
      // Whose the token is: the user the path names (createAuthToken), else, until something says
      // otherwise, the caller's (the record getCurrentUser answers is the caller's own). A token
      // already known as a user's stays that user's: answered by createAuthToken for another user,
      // it is a reused token (token-issued-new), and later answers are judged as showing its owner's.
      const owner = pathId(operation, url.pathname);
      const caller = recordId ?? callerOf(exchange);
      for (const token of marked) ownToken(token, owner ?? caller, false);
    },
  };
}
