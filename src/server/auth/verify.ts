import type { FastifyRequest } from 'fastify';
import type { ErrorFactory } from '../../errors.js';
import type { ErrorMessage, UnauthenticatedMessage } from '../error-messages.js';
import type { FakeState } from '../../store/state.js';
import type { Session } from '../../store/accounts.js';
import type { StoredUser } from '../../store/accounts.js';
import { cookieOf } from '../cookies.js';
import type { Scheme } from './schemes.js';

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

export interface AuthDependencies {
  readonly state: FakeState;
  readonly errors: ErrorFactory;
  /** The messages of the document's error list. */
  readonly messages: ErrorMessage;
  /** Read on every request, so a change at run time applies to the next one. */
  readonly config: { readonly authTokenEnabled: boolean; readonly requireCsrf: boolean };
}

export interface Verified {
  readonly user: StoredUser;
  readonly session?: Session;
}

/** The raw credential a request carries for a scheme (an array when its cookie or parameter is repeated with different values), or undefined when it carries none. */
export function presented(scheme: Scheme, request: FastifyRequest): unknown {
  switch (scheme.kind) {
    case 'basic':
      return request.headers.authorization;
    case 'session':
      return cookieOf(request, scheme.key);
    case 'token':
      return (request.query as Record<string, unknown> | undefined)?.[scheme.key];
  }
}

/** The name, in the document's error list (`x-messages` of UNAUTHENTICATED), of why a presented credential was refused. */
export function whyRefused(scheme: Scheme, credential: unknown): UnauthenticatedMessage {
  switch (scheme.kind) {
    case 'basic':
      return typeof credential === 'string' && parseBasic(credential) ? 'basicWrong' : 'basicMalformed';
    case 'session':
      return Array.isArray(credential) ? 'sessionRepeated' : 'sessionUnknown';
    case 'token':
      return 'tokenUnknown';
  }
}

/**
 * Checks one presented credential: the user it proves, or undefined when it is wrong
 * (a malformed header, a repeated parameter or cookie, an unknown, replaced, revoked or expired one).
 */
export function verify(scheme: Scheme, credential: unknown, deps: AuthDependencies): Verified | undefined {
  const { state } = deps;
  if (typeof credential !== 'string') return undefined;
  switch (scheme.kind) {
    case 'basic': {
      const basic = parseBasic(credential);
      const user = basic && state.users.verify(basic.login, basic.password);
      return user ? { user } : undefined;
    }
    case 'session': {
      const session = state.sessions.touch(credential);
      const user = session && state.users.byId(session.userId);
      return user ? { user, session } : undefined;
    }
    case 'token': {
      if (!deps.config.authTokenEnabled) {
        throw deps.errors('TOKEN_AUTH_DISABLED', deps.messages('TOKEN_AUTH_DISABLED', 'disabled'));
      }
      const userId = state.tokens.userFor(credential);
      const user = userId === undefined ? undefined : state.users.byId(userId);
      return user ? { user } : undefined;
    }
  }
}
