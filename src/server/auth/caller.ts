import type { FastifyRequest } from 'fastify';
import type { ErrorFactory } from '../../errors.js';
import type { ErrorMessage } from '../error-messages.js';
import type { Session } from '../../store/accounts.js';
import type { StoredUser } from '../../store/accounts.js';

/** Who made a request, and how they proved it. */
export interface Caller {
  readonly user: StoredUser;
  /** The first scheme, in the document's order, that authenticated the request. */
  readonly via: SchemeKind;
  /** The session, when a session cookie was among the credentials. */
  readonly session?: Session;
}

export type SchemeKind = 'basic' | 'session' | 'token';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the guard of operations that need authentication; null elsewhere. */
    caller: Caller | null;
  }
}

/** The authenticated caller of a handler whose operation requires authentication. */
export function requireCaller(request: FastifyRequest, { errors, messages }: { readonly errors: ErrorFactory; readonly messages: ErrorMessage }): Caller {
  if (!request.caller) throw errors('UNAUTHENTICATED', messages('UNAUTHENTICATED', 'missing'));
  return request.caller;
}
