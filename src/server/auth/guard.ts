import type { FastifyRequest } from 'fastify';
import type { Operation } from '../../spec/index.js';
import type { RequestCheck } from '../request-hooks.js';
import type { Caller } from './caller.js';
import { checkCsrf, checkPermissions } from './access.js';
import type { Scheme } from './schemes.js';
import { presented, verify, type AuthDependencies } from './verify.js';

export interface GuardDependencies extends AuthDependencies {
  readonly schemes: ReadonlyMap<string, Scheme>;
}

/**
 * The onRequest check of an operation, driven only by its `security` and `x-permissions`:
 * authentication (401), then CSRF and permissions (403). It runs before the body is read
 * and before parameters are validated, so an anonymous caller learns nothing else.
 *
 * Only the schemes the operation accepts are looked at (a browser's session cookie does not
 * spoil a Basic-only call); every credential of those that is present must be right and name
 * the same user, and together they must satisfy one alternative of `security`.
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
  const { errors } = deps;
  const unauthenticated = () => errors('UNAUTHENTICATED', 'Authentication required.');

  const authenticate = (request: FastifyRequest): Caller | null => {
    let caller: { -readonly [K in keyof Caller]: Caller[K] } | null = null;
    const satisfied = new Set<Scheme>();
    for (const scheme of accepted) {
      const credential = presented(scheme, request);
      if (credential === undefined) continue;
      const verified = verify(scheme, credential, deps);
      if (!verified || (caller && caller.user !== verified.user)) throw unauthenticated();
      caller ??= { user: verified.user, via: scheme.kind };
      if (verified.session) caller.session = verified.session;
      satisfied.add(scheme);
    }
    if (!alternatives.some((alternative) => alternative.every((scheme) => satisfied.has(scheme)))) {
      throw unauthenticated();
    }
    return caller;
  };

  return function guard(request) {
    const caller = authenticate(request);
    request.caller = caller;
    if (caller) {
      checkCsrf(request, caller, deps);
      checkPermissions(operation, caller, errors);
    } else if (operation.permissions.length > 0) {
      throw unauthenticated();
    }
  };
}
