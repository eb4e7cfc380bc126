// The credential matrix: for one operation, every security scheme of the document (those it
// declares and those it does not) × every kind of credential, and what each must answer. A
// valid credential is judged as the user it names: accepted where that user holds the
// operation's permissions, refused with 403 where not.
import type { Operation, Spec, User } from '../../../spec/index.js';
import { authMethodAccepted, permissionRefused, undeclaredSchemeRefused, unauthenticatedRefused, wrongCredentialsRefused } from '../../checks/access-checks.js';
import { apply } from '../../checks/check.js';
import type { CheckName } from '../../checks/registry.js';
import { authModesOf, isWrongCredentials, schemeKey } from '../../client/credentials.js';
import type { Call } from '../../client/api-client.js';
import type { Actor, Applied, AuthMode } from '../../types.js';

/** The credentials the matrix can send besides the actors' own. */
export interface MatrixCredentials {
  readonly admin?: User;
  /** Another user than the administrator, whose live token the matrix sends as that user's. */
  readonly other?: { readonly actor: Actor; readonly user: User };
  /** A session id that was logged out. */
  readonly endedSession?: string;
  /** A token that was revoked. */
  readonly revokedToken?: string;
  readonly adminToken?: string;
}

/** One request of the matrix: how it authenticates and the check that judges it. */
export interface Cell {
  readonly name: string;
  readonly actor: Actor;
  readonly auth: AuthMode;
  readonly query?: Record<string, string>;
  readonly cookies?: Record<string, string>;
  readonly check: Applied;
}

/** A cell the matrix could not send, and why (no token of the administrator, writes not allowed…). */
export interface Missing {
  readonly check: CheckName;
  readonly reason: string;
}

/** The check a valid credential of `user` gets on `op`. */
function asUser(op: Operation, user: User | undefined, unknownTarget: boolean): Applied {
  if (user === undefined || op.permissions.every((p) => (user.permissions ?? []).includes(p))) return apply(authMethodAccepted, { ...(user ? { expectLogin: user.login } : {}), unknownTarget });
  return apply(permissionRefused, { login: user?.login ?? '', unknownTarget });
}

export function cellsOf(spec: Spec, op: Operation, have: MatrixCredentials, unknownTarget: boolean): { cells: Cell[]; missing: Missing[] } {
  const declared = new Set(op.security.flatMap((alternative) => Object.keys(alternative)));
  const cells: Cell[] = [{ name: 'none', actor: 'anonymous', auth: 'none', check: apply(unauthenticatedRefused, { unknownTarget }) }];
  const missing: Missing[] = [];
  // A valid credential sent as the administrator: a token only when the administrator has one.
  const addValid = (auth: AuthMode, cell: Pick<Cell, 'check' | 'name'>): void => {
    if ((auth === 'token' || auth === 'auth-token') && !have.adminToken) missing.push({ check: cell.check.name as CheckName, reason: 'no API token for the administrator (give --token)' });
    else cells.push({ ...cell, actor: 'admin', auth });
  };
  for (const scheme of Object.keys(spec.document.components?.securitySchemes ?? {})) {
    for (const auth of authModesOf(scheme)) {
      const valid = !isWrongCredentials(auth);
      const token = auth === 'token' || auth === 'auth-token';
      if (!declared.has(scheme)) {
        // Anyone's valid credential will do: it is the scheme that must not be accepted.
        const check = apply(undeclaredSchemeRefused, {});
        if (token && !have.adminToken && have.other) cells.push({ name: `undeclared/${auth}`, actor: have.other.actor, auth, check });
        else if (valid) addValid(auth, { check, name: `undeclared/${auth}` });
        continue;
      }
      if (valid) {
        addValid(auth, { check: asUser(op, have.admin, unknownTarget), name: auth });
        if (token && have.other) {
          cells.push({ name: `other-user/${auth}`, actor: have.other.actor, auth, check: asUser(op, have.other.user, unknownTarget) });
        } else if (token) {
          missing.push({ check: authMethodAccepted.name, reason: 'no token of a user other than the administrator (give --low-login; tokens are created only where writes are allowed)' });
        }
        continue;
      }
      const check = apply(wrongCredentialsRefused, { unknownTarget });
      const name = wrongCredentialsRefused.name;
      if (auth === 'wrong-ended-session') {
        if (have.endedSession) cells.push({ name: auth, actor: 'anonymous', auth, cookies: { [schemeKey(spec, scheme)]: have.endedSession }, check });
        else missing.push({ check: name, reason: 'no logged-out session (the log-in or log-out failed)' });
      } else if (auth === 'wrong-revoked-token' || auth === 'wrong-revoked-auth-token') {
        if (have.revokedToken) cells.push({ name: auth, actor: 'anonymous', auth, query: { [schemeKey(spec, scheme)]: have.revokedToken }, check });
        else missing.push({ check: name, reason: 'no revoked token (tokens are created and revoked only where writes are allowed, for the low-privilege or operator user)' });
      } else {
        // Basic with a known login (wrong or empty password) is the administrator's login.
        cells.push({ name: auth, actor: auth === 'wrong-password' || auth === 'wrong-empty-password' ? 'admin' : 'anonymous', auth, check });
      }
    }
  }
  return { cells, missing };
}

/** The call of a cell on top of the operation's harmless request. */
export function cellCall(base: Omit<Call, 'key' | 'actor' | 'auth'>, cell: Cell, key: string): Call {
  return { ...base, key, actor: cell.actor, auth: cell.auth, query: { ...base.query, ...cell.query }, ...(cell.cookies ? { cookies: cell.cookies } : {}) };
}
