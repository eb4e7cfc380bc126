// Each operation that needs permissions (x-permissions), sent by each user the run knows other
// than the administrator: accepted from one who holds them (--operator-login: e.g. only
// manage-event-log), refused with 403 from one who lacks them (--low-login). Writes aim where an
// accepted request changes nothing: an id that does not exist, or a trap's payload with its own text.
import { apply } from '../checks/check.js';
import { permissionAccepted, permissionRefused } from '../checks/access-checks.js';
import type { Actor } from '../types.js';
import { harmlessCall, isWrite } from './harmless-calls.js';
import { LOW_USER_UNREAD, sampleRecord, type Plan } from './plan.js';
import { textOf } from './payload-text.js';

const USERS: readonly [Exclude<Actor, 'admin' | 'anonymous'>, string][] = [
  ['low', '--low-login/--low-password'],
  ['operator', '--operator-login/--operator-password'],
];

export const permissionsPlan: Plan = {
  async run(ctx) {
    const guarded = ctx.spec.operations.filter((op) => op.permissions.length > 0);
    const given = USERS.filter(([actor]) => ctx.client.hasActor(actor));
    for (const op of guarded) {
      const users = given.flatMap(([actor]) => (ctx.world[actor] ? [{ actor, user: ctx.world[actor] }] : []));
      const holders = users.filter(({ user }) => op.permissions.every((p) => (user.permissions ?? []).includes(p)));
      if (holders.length === 0) ctx.skip(op.operationId, permissionAccepted.name, `no user given besides the administrator holds the permission it needs${ctx.client.hasActor('operator') ? '' : ' (give --operator-login)'}`);
      if (holders.length === users.length) ctx.skip(op.operationId, permissionRefused.name, given.length === 0 ? 'no low-privilege user (give --low-login)' : `every user given holds ${op.permissions.join(', ')}`);
      if (users.length < given.length) ctx.inconclusive(op.operationId, permissionRefused.name, LOW_USER_UNREAD);
      if (users.length === 0) continue;
      if (isWrite(op) && !ctx.policy.writes) {
        for (const check of [permissionAccepted.name, permissionRefused.name]) ctx.skip(op.operationId, check, `${op.method.toUpperCase()} not sent: ${ctx.policy.reason}`);
        continue;
      }
      const call = harmlessCall(ctx, op);
      let unknownTarget = Object.keys(call.path ?? {}).length > 0;
      let { path, body } = call;
      // A trap's payload with the text it has: accepted, it changes nothing, and it answers 204, not 404.
      if (op.operationId === 'updateEventLogPayload') {
        const trap = await sampleRecord(ctx, 'snmp-trap');
        const text = trap && textOf(trap);
        if (trap && text !== undefined) {
          path = { id: String(trap._id) };
          body = { text };
          unknownTarget = false;
        }
      }
      for (const { actor, user } of users) {
        const check = holders.some((h) => h.actor === actor)
          ? apply(permissionAccepted, { login: user.login, unknownTarget })
          : apply(permissionRefused, { login: user.login, unknownTarget });
        await ctx.send({ ...call, path, body, key: `permissions/${op.operationId}/${actor}`, actor, auth: 'basic' }, { checks: [check] });
      }
    }
  },
};
