import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { ErrorFactory } from '../../errors.js';
import type { ErrorMessage } from '../error-messages.js';
import type { Operation } from '../../spec/index.js';
import type { Caller } from './caller.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

/** Where CSRF is required, a write made with a session cookie must send the session's csrf value in `x-csrf-token`. */
export function checkCsrf(
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
export function checkPermissions(operation: Operation, caller: Caller, { errors, messages }: { readonly errors: ErrorFactory; readonly messages: ErrorMessage }): void {
  for (const permission of operation.permissions) {
    if (!caller.user.permissions.includes(permission)) {
      throw errors('PERMISSION_DENIED', messages('PERMISSION_DENIED', 'permissionMissing', { permission }), { permission });
    }
  }
}
