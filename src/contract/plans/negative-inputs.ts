// Invalid inputs generated from the document get a 4xx on every operation (writes only when allowed).
import type { Operation } from '../../spec/index.js';
import { apply } from '../checks/check.js';
import { invalidInputRefused } from '../checks/step-checks.js';
import { negativeInputs } from '../negative-inputs.js';
import { isSessionCall, isWrite } from './harmless-calls.js';
import { restoreText, textOf } from './payload-text.js';
import type { Plan, PlanContext, Row } from './plan.js';
import { sampleRecord } from './plan.js';

async function validStart(ctx: PlanContext, op: Operation): Promise<{ path?: Record<string, string>; body?: Record<string, unknown>; record?: Row }> {
  const { random } = ctx;
  if (op.operationId === 'createSession') return { body: { login: `contract-check-${random.word(8)}`, password: random.word(12) } };
  if (op.operationId === 'updateEventLogPayload') {
    const trap = await sampleRecord(ctx, 'snmp-trap');
    const text = trap && textOf(trap);
    if (trap && text !== undefined) return { path: { id: String(trap._id) }, body: { text }, record: trap };
    return { path: { id: random.objectId() }, body: { text: 'contract-check' } };
  }
  const path = Object.fromEntries(op.parameters.filter((p) => p.in === 'path').map((p) => [p.name, random.objectId()]));
  return { path };
}

export const negativeInputsPlan: Plan = {
  async run(ctx) {
    for (const op of ctx.spec.operations) {
      if (isWrite(op) && !isSessionCall(op) && !ctx.policy.writes) {
        ctx.skip(op.operationId, invalidInputRefused.name, `${op.method.toUpperCase()} not sent: ${ctx.policy.reason}`);
        continue;
      }
      const start = await validStart(ctx, op);
      const inputs = negativeInputs(op, ctx.random, start);
      // Login attempts go out as nobody, so a wrongly accepted one opens no administrator session.
      const login = op.operationId === 'createSession';
      try {
        for (const [i, input] of inputs.entries()) {
          const exchange = await ctx.send(
            {
              operationId: op.operationId,
              key: `negative/${op.operationId}/${i}`,
              actor: login ? 'anonymous' : 'admin',
              auth: login ? 'none' : undefined,
              path: input.path ?? start.path,
              query: input.query,
              body: input.body,
              rawBody: input.rawBody,
              contentType: input.contentType,
            },
            { checks: [apply(invalidInputRefused, { what: input.what, ...(input.parameter ? { parameter: input.parameter } : {}) })] },
          );
          if (login && exchange.response && exchange.response.status < 300) {
            await ctx.send({ operationId: 'deleteSession', key: `negative/${op.operationId}/${i}/logout`, actor: 'anonymous', auth: 'session' });
          }
        }
      } finally {
        if (start.record) await restoreText(ctx, start.record, `negative/${op.operationId}/restore`);
      }
    }
  },
};
