// A low-privilege user is refused (403) on every operation that needs a permission it lacks.
import { apply } from '../checks/define.js';
import { permissionRefused } from '../checks/permission-refused.js';
import { harmlessCall, isWrite } from './harmless-calls.js';
import { LOW_USER_UNREAD, sampleRecord, type Plan } from './plan.js';

export const permissionsPlan: Plan = {
  async run(ctx) {
    const guarded = ctx.spec.operations.filter((op) => op.permissions.length > 0);
    const low = ctx.world.low;
    for (const op of guarded) {
      if (!ctx.client.hasActor('low')) {
        ctx.skip(op.operationId, 'permission-refused', 'no low-privilege user (--low-login/--low-password)');
        continue;
      }
      if (!low) {
        ctx.inconclusive(op.operationId, 'permission-refused', LOW_USER_UNREAD);
        continue;
      }
      const has = Array.isArray(low.permissions) ? low.permissions : [];
      const missing = op.permissions.filter((p) => !has.includes(p));
      if (missing.length === 0) {
        ctx.skip(op.operationId, 'permission-refused', `the low-privilege user has ${op.permissions.join(', ')}`);
        continue;
      }
      if (isWrite(op) && !ctx.policy.writes) {
        ctx.skip(op.operationId, 'permission-refused', `${op.method.toUpperCase()} not sent: ${ctx.policy.reason}`);
        continue;
      }
      const call = harmlessCall(ctx, op);
      // Aim at the low user's own id and at a real trap with its own text: a wrongly accepted
      // request then replaces only the low user's token, or writes the text the record has.
      let path = call.path;
      let body = call.body;
      if (op.path.includes('/users/{id}')) path = { id: low.id };
      if (op.operationId === 'updateEventLogPayload') {
        const trap = await sampleRecord(ctx, 'snmp-trap');
        const payload = trap?.payload as Record<string, unknown> | undefined;
        if (trap && typeof payload?.text === 'string') {
          path = { id: String(trap._id) };
          body = { text: payload.text };
        }
      }
      await ctx.send({ ...call, path, body, key: `permissions/${op.operationId}`, actor: 'low', auth: 'basic' }, { checks: [apply(permissionRefused)] });
    }
  },
};
