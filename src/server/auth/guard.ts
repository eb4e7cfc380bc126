import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { ErrorFactory } from '../../errors.js';
import type { ErrorMessage, UnauthenticatedMessage } from '../error-messages.js';
import type { Operation } from '../../spec/index.js';
import type { RequestCheck } from '../routes.js';
import type { Caller } from './caller.js';
import type { Scheme } from './schemes.js';
import type { SessionHosts } from '../host-origin-guard.js';
import { presented, verify, whyRefused, type AuthDependencies } from './verify.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** Where CSRF is required, a write made with a session cookie must send the session's csrf value in `x-csrf-token`. */
function checkCsrf(
  request: FastifyRequest,
  caller: Caller,
  deps: { readonly config: { readonly requireCsrf: boolean }; readonly errors: ErrorFactory; readonly messages: ErrorMessage },
): void {
  if (!deps.config.requireCsrf || !caller.session || SAFE_METHODS.has(request.method)) return;
  const sent = request.headers['x-csrf-token'];
  if (typeof sent !== 'string' || !timingSafeEqual(digest(sent), digest(caller.session.csrf))) {
    throw deps.errors('CSRF_TOKEN_INVALID', deps.messages('CSRF_TOKEN_INVALID', 'mismatch'));
  }
}

/** Every permission of the operation's `x-permissions`; the first one missing is named in the 403. */
function checkPermissions(operation: Operation, caller: Caller, { errors, messages }: { readonly errors: ErrorFactory; readonly messages: ErrorMessage }): void {
  for (const permission of operation.permissions) {
    if (!caller.user.permissions.includes(permission)) {
      throw errors('PERMISSION_DENIED', messages('PERMISSION_DENIED', 'permissionMissing', { permission }), { permission });
    }
  }
}

export interface GuardDependencies extends AuthDependencies {
  readonly schemes: ReadonlyMap<string, Scheme>;
  /** Where sessions were created, to explain a cookie that a page on another host name did not send. */
  readonly sessionHosts?: SessionHosts;
}

/**
 * The onRequest check of an operation, driven only by its `security` and `x-permissions`:
 * authentication (401), then CSRF and permissions (403). It runs before the body is read
 * and before parameters are validated, so an anonymous caller learns nothing else.
 *
 * Only the schemes the operation accepts are looked at (a browser's session cookie does not
 * spoil a Basic-only call); every credential of those that is present must be right and name
 * the same user (the document's gap-fill on UNAUTHENTICATED), and together they must satisfy
 * one alternative of `security`. Each refusal says which credential failed and why, in the
 * words of the document's error list, never with the credential itself.
 */
export function createGuard(operation: Operation, deps: GuardDependencies): RequestCheck | undefined {
  const alternatives = operation.security.map((requirement) =>
    Object.keys(requirement).map((name) => {
      const scheme = deps.schemes.get(name);
      if (!scheme) throw new Error(`${operation.operationId}: unknown security scheme "${name}".`);
      return scheme;
    }),
  );
  if (alternatives.length === 0) return undefined;
  const accepted = [...new Set(alternatives.flat())];
  // Each alternative as the bits of the accepted schemes it needs: a request's satisfied schemes
  // are a number, not a set made for each request.
  if (accepted.length > 30) throw new Error(`${operation.operationId}: more security schemes than the guard can hold.`);
  const needs = alternatives.map((alternative) => alternative.reduce((bits, scheme) => bits | (1 << accepted.indexOf(scheme)), 0));
  const { errors, messages } = deps;
  const refused = (name: UnauthenticatedMessage, values?: Record<string, string>) => errors('UNAUTHENTICATED', messages('UNAUTHENTICATED', name, values));

  /** No credential at all: maybe one the browser did not send because the page is on another host name. */
  const missing = (request: FastifyRequest) => {
    const mismatch = deps.sessionHosts?.mismatch(request, (id) => deps.state.sessions.isLive(id));
    if (!mismatch) return refused('missing');
    const error = refused('cookieForOtherHost', { ...mismatch });
    request.log.warn({ sessionHost: mismatch.sessionHost, pageHost: mismatch.pageHost }, error.message);
    return error;
  };

  const authenticate = (request: FastifyRequest): Caller | null => {
    let caller: { -readonly [K in keyof Caller]: Caller[K] } | null = null;
    let first: Scheme | undefined;
    let satisfied = 0;
    for (let i = 0; i < accepted.length; i++) {
      const scheme = accepted[i] as Scheme;
      const credential = presented(scheme, request);
      if (credential === undefined) continue;
      const verified = verify(scheme, credential, deps);
      if (!verified) throw refused(whyRefused(scheme, credential), { name: scheme.key });
      if (caller && caller.user !== verified.user) throw refused('differentUsers', { first: first?.name ?? '', second: scheme.name });
      first ??= scheme;
      caller ??= { user: verified.user, via: scheme.kind };
      if (verified.session) caller.session = verified.session;
      satisfied |= 1 << i;
    }
    if (!needs.some((bits) => (satisfied & bits) === bits)) {
      throw satisfied === 0 ? missing(request) : refused('missing');
    }
    return caller;
  };

  return function guard(request) {
    const caller = authenticate(request);
    request.caller = caller;
    if (caller) {
      checkCsrf(request, caller, deps);
      checkPermissions(operation, caller, deps);
    } else if (operation.permissions.length > 0) {
      throw missing(request);
    }
  };
}
