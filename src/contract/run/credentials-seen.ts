// The credentials a run has seen, learned from its exchanges: API tokens (with the id of the
// user each belongs to, when known) and session ids. The no-sensitive-data check reads it to
// tell a caller's own credential from someone else's.
import type { Spec } from '../../spec/index.js';
import { bodyToken } from '../client/body-token.js';
import { MIN_ISSUED_CHARS } from '../secrets.js';
import type { CredentialsSeen, Exchange } from '../types.js';

type Json = Record<string, unknown>;

const TOKEN_PARAMETERS = ['api-token', 'auth-token'];

export interface CredentialsLearner {
  readonly seen: CredentialsSeen;
  /** Learns from one exchange, before its checks run. */
  learn(exchange: Exchange): void;
}

export function createCredentialsSeen(spec: Spec): CredentialsLearner {
  const owners = new Map<string, string | undefined>();
  const sessions = new Set<string>();
  const sessionCookie = (spec.document.components?.securitySchemes?.sessionCookie as { name?: string } | undefined)?.name ?? 'sid';
  const tokenOperation = spec.operation('createAuthToken');
  // The path of 4.1 with its id captured: /node/api/users/{id}/auth-token.
  const tokenPath = new RegExp(`^${tokenOperation.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[^}]+\\?\}/g, '([^/]+)')}$`);
  const ownToken = (token: string | undefined, owner: string | undefined, authoritative: boolean): void => {
    if (!token || token.length < MIN_ISSUED_CHARS) return;
    if (authoritative || owners.get(token) === undefined) owners.set(token, owner);
  };

  return {
    seen: {
      tokenOwner: (token) => owners.get(token),
      tokenIn: (text) => [...owners.keys()].find((token) => text.includes(token)),
      sessionIdIn: (text) => [...sessions].find((id) => text.includes(id)),
    },
    learn(exchange) {
      const response = exchange.response;
      if (!response) return;
      const ok = response.status >= 200 && response.status < 300;
      const cookies = response.headers['set-cookie'];
      for (const cookie of Array.isArray(cookies) ? cookies : cookies ? [cookies] : []) {
        const [, name, value] = /^\s*([^=;\s]+)=([^;]*)/.exec(cookie) ?? [];
        if (name === sessionCookie && value && value.length >= MIN_ISSUED_CHARS) sessions.add(value);
      }
      if (!ok) return;
      const url = new URL(exchange.request.url);
      if (exchange.operationId === 'createSession') {
        const id = bodyToken(response);
        if (id && id.length >= MIN_ISSUED_CHARS) sessions.add(id);
      }
      if (exchange.operationId === 'createAuthToken') {
        const owner = tokenPath.exec(url.pathname)?.[1];
        ownToken(bodyToken(response), owner === undefined ? undefined : decodeURIComponent(owner), true);
      }
      const json = response.json as Json | undefined;
      const recordId = typeof json?.id === 'string' ? json.id : undefined;
      if (exchange.operationId !== 'getCurrentUser' || !recordId) return;
      // A token that alone authenticated a request belongs to the user whose record came back.
      const sent = TOKEN_PARAMETERS.map((p) => url.searchParams.get(p)).find((t): t is string => t !== null);
      const alone = sent !== undefined && exchange.request.headers.authorization === undefined && exchange.request.headers.cookie === undefined;
      if (sent) ownToken(sent, alone ? recordId : undefined, alone);
      // A token a record shows is taken as that user's until something says otherwise.
      if (typeof json?.authenticationToken === 'string') ownToken(json.authenticationToken, recordId, false);
    },
  };
}
