import type { FastifyRequest } from 'fastify';
import type { ErrorFactory } from '../../errors.js';
import type { ErrorMessage, UnauthenticatedMessage } from '../error-messages.js';
import type { FakeState } from '../../store/state.js';
import type { Session } from '../../store/sessions.js';
import type { StoredUser } from '../../store/users.js';
import { cookieOf } from '../cookies.js';
import { parseBasic } from './basic.js';
import type { Scheme } from './schemes.js';

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
