// Who may call what: the credential matrix on every operation (model/access/credential-cells.ts),
// log-ins with wrong passwords, and each permission held or lacked.
import type { Operation, User } from '../../spec/index.js';
import { authMethodAccepted, wrongCredentialsRefused, permissionAccepted, permissionRefused } from '../checks/access-checks.js';
import { apply } from '../checks/check.js';
import type { CheckName } from '../checks/registry.js';
import { bodyToken, schemeKey } from '../client/credentials.js';
import { cellCall, cellsOf, type MatrixCredentials } from '../model/access/credential-cells.js';
import type { Actor } from '../types.js';
import { harmlessCall, isSessionCall, isWrite, type Plan, type PlanContext, LOW_USER_UNREAD, sameTextUpdate } from './plan.js';

const ok = (status: number | undefined): boolean => status !== undefined && status >= 200 && status < 300;

/** The non-administrator user whose tokens the run may create and revoke. */
export function otherUser(ctx: PlanContext): { actor: 'low' | 'operator'; user: User } | undefined {
  if (ctx.world.low) return { actor: 'low', user: ctx.world.low };
  return ctx.world.operator ? { actor: 'operator', user: ctx.world.operator } : undefined;
}

/** Log-ins with a known login and a wrong or empty password, or an unknown login: each refused. */
async function logIns(ctx: PlanContext, op: Operation): Promise<void> {
  const admin = ctx.client.credentials('admin');
  if (!admin) return;
  const bodies: [string, string, { login: string; password: string }][] = [
    ['wrong-password', 'a log-in with a known login and a wrong password', { login: admin.login, password: `${admin.password}-${ctx.random.word(6)}` }],
    ['empty-password', 'a log-in with a known login and an empty password', { login: admin.login, password: '' }],
    ['unknown-login', 'a log-in with an unknown login', { login: `contract-check-${ctx.random.word(8)}`, password: ctx.random.word(12) }],
  ];
  for (const [name, what, body] of bodies) {
    const sent = await ctx.send({ operationId: op.operationId, key: `auth/${op.operationId}/${name}`, actor: 'anonymous', auth: 'none', body }, { checks: [apply(wrongCredentialsRefused, { what })] });
    // A wrongly accepted log-in opens a session: end it.
    if (ok(sent.response?.status)) await ctx.send({ operationId: 'deleteSession', key: `auth/${op.operationId}/${name}/log-out`, actor: 'anonymous', auth: 'session' });
  }
}

/** The credentials the matrix sends besides the actors' own, and how to leave no token of the run's making behind. */
async function prepare(ctx: PlanContext): Promise<MatrixCredentials & { release(): Promise<void> }> {
  const { client } = ctx;
  const admin = client.credentials('admin');
  const logIn = (actor: Actor, key: string) => ctx.send({ operationId: 'createSession', key, actor, auth: 'none', body: admin }, { checks: [apply(authMethodAccepted, { what: 'a log-in with a known login and its password' })] });
  await logIn('admin', 'auth/createSession/valid');
  await logIn('anonymous', 'auth/ended-session/log-in');
  const ended = await client.cookie('anonymous', schemeKey(ctx.spec, 'sessionCookie'));
  const logOut = await ctx.send({ operationId: 'deleteSession', key: 'auth/ended-session/log-out', actor: 'anonymous', auth: 'session' });
  const other = otherUser(ctx);
  let revokedToken: string | undefined;
  let created = false;
  if (other && ctx.policy.writes) {
    const token = async (key: string, operationId: string): Promise<string | undefined> => bodyToken((await ctx.send({ operationId, key, path: { id: other.user.id }, auth: 'basic' })).response);
    const first = await token('auth/token/create', 'createAuthToken');
    const revoked = await ctx.send({ operationId: 'revokeAuthToken', key: 'auth/token/revoke', path: { id: other.user.id }, auth: 'basic' });
    if (first && ok(revoked.response?.status)) revokedToken = first;
    const live = await token('auth/token/create-again', 'createAuthToken');
    created = true;
    client.setToken(other.actor, live);
  } else if (other) {
    const token = (other.user as { authenticationToken?: unknown }).authenticationToken;
    if (typeof token === 'string') client.setToken(other.actor, token);
  }
  return {
    admin: ctx.world.admin,
    ...(other && client.token(other.actor) ? { other } : {}),
    ...(ended && ok(logOut.response?.status) ? { endedSession: ended } : {}),
    ...(revokedToken ? { revokedToken } : {}),
    ...(client.token('admin') ? { adminToken: client.token('admin') } : {}),
    async release() {
      if (!created || !other) return;
      // The run leaves no live token of its own making.
      await ctx.send({ operationId: 'revokeAuthToken', key: 'auth/token/revoke-again', path: { id: other.user.id }, auth: 'basic' });
      client.setToken(other.actor, undefined);
    },
  };
}

export const authenticationPlan: Plan = async (ctx) => {
  const have = await prepare(ctx);
  // The log-out's valid cell ends the session the others send: it goes last.
  const operations = [...ctx.spec.operations].sort((a, b) => Number(a.operationId === 'deleteSession') - Number(b.operationId === 'deleteSession'));
  try {
    for (const op of operations) {
      if (op.security.length === 0) {
        await logIns(ctx, op);
        continue;
      }
      const base = harmlessCall(ctx, op);
      const unknownTarget = Object.keys(base.path ?? {}).length > 0;
      const { cells, missing } = cellsOf(ctx.spec, op, have, unknownTarget);
      if (isWrite(op) && !isSessionCall(op) && !ctx.policy.writes) {
        for (const check of new Set([...cells.map((c) => c.check.name as CheckName), ...missing.map((m) => m.check)])) ctx.skip(op.operationId, check, `${op.method.toUpperCase()} not sent: ${ctx.policy.reason}`);
        continue;
      }
      for (const m of missing) ctx.skip(op.operationId, m.check, m.reason);
      // The cells of an operation change nothing the others read: sent together.
      await Promise.all(cells.map((cell) => ctx.send(cellCall(base, cell, `auth/${op.operationId}/${cell.name}`), { checks: [cell.check] })));
    }
  } finally {
    await have.release();
  }
};

export const permissionsPlan: Plan = async (ctx) => {
  const guarded = ctx.spec.operations.filter((op) => op.permissions.length > 0);
  const given = (['low', 'operator'] as const).filter((actor) => ctx.client.hasActor(actor));
  for (const op of guarded) {
    const users = given.flatMap((actor) => (ctx.world[actor] ? [{ actor, user: ctx.world[actor] }] : []));
    const holders = users.filter(({ user }) => op.permissions.every((p) => (user.permissions ?? []).includes(p)));
    if (holders.length === 0) ctx.skip(op.operationId, permissionAccepted.name, `no user given besides the administrator holds the permission it needs${ctx.client.hasActor('operator') ? '' : ' (give --operator-login)'}`);
    if (holders.length === users.length) ctx.skip(op.operationId, permissionRefused.name, given.length === 0 ? 'no low-privilege user (give --low-login)' : `every user given holds ${op.permissions.join(', ')}`);
    if (users.length < given.length) ctx.inconclusive(op.operationId, permissionRefused.name, LOW_USER_UNREAD);
    if (users.length === 0) continue;
    if (isWrite(op) && !ctx.policy.writes) {
      for (const check of [permissionAccepted.name, permissionRefused.name]) ctx.skip(op.operationId, check, `${op.method.toUpperCase()} not sent: ${ctx.policy.reason}`);
      continue;
    }
    const same = op.operationId === 'updateEventLogPayload' ? await sameTextUpdate(ctx) : undefined;
    const call = { ...harmlessCall(ctx, op), ...(same && { path: same.path, body: same.body }) };
    const unknownTarget = !same && Object.keys(call.path ?? {}).length > 0;
    for (const { actor, user } of users) {
      const check = holders.some((h) => h.actor === actor)
        ? apply(permissionAccepted, { login: user.login, unknownTarget })
        : apply(permissionRefused, { login: user.login, unknownTarget });
      await ctx.send({ ...call, key: `permissions/${op.operationId}/${actor}`, actor, auth: 'basic' }, { checks: [check] });
    }
  }
};
