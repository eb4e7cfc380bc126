// The event log and the limit-block log: a closed world of each log (model/closed-world.ts),
// generated queries judged against its model, and filters that are no filters refused.
import { apply, rows } from '../checks/check.js';
import { limitHonoured } from '../checks/model-checks.js';
import { isNoWorld, type ClosedWorld, type NoWorld, closeWorld } from '../model/closed-world.js';
import { checkAgainstModel } from '../model/model-queries.js';
import { modelChecksOf } from '../model/list-model.js';
import type { PlanContext, Plan } from './plan.js';
import { invalidInputRefused } from '../checks/step-checks.js';
import { BUDGET_SHARES } from '../model/budget.js';

/**
 * With a world: the world is shared (ctx.world.closedWorlds) and its queries judged. An empty
 * log shows nothing of the rules, so it is confirmed by a read without `limit` first: records
 * there are a finding of limit-honoured, none means the checks are skipped.
 */
export async function judgeInWorld(ctx: PlanContext, operationId: string, world: ClosedWorld | NoWorld, share: number): Promise<void> {
  const checks = modelChecksOf(ctx.spec.operation(operationId));
  if (isNoWorld(world)) {
    for (const check of checks) ctx[world.kind](operationId, check, world.why);
    return;
  }
  ctx.world.closedWorlds.set(operationId, world);
  if (world.records.length === 0) {
    const whole = await ctx.send({ operationId, key: `${operationId}/empty-without-limit`, query: world.bounds });
    const [first] = world.reads;
    if (rows(whole).length > 0 && first) {
      ctx.evaluate(first, { checks: [apply(limitHonoured, { query: { ...world.bounds, limit: String(ctx.maxRecords + 1) }, emptyBut: rows(whole).length })] });
      return;
    }
    for (const check of checks) ctx.skip(operationId, check, 'the log is empty (read with and without limit)');
    return;
  }
  await checkAgainstModel(ctx, world, share);
}

const OLDEST = { sortField: 'timestamp', sortDirection: 'asc' };
const NEWEST = { sortField: 'timestamp', sortDirection: 'desc' };

export const eventLogPlan: Plan = async (ctx) => {
  const op = 'getEventLog';
  const world = await closeWorld(ctx, { operationId: op, directions: [OLDEST, NEWEST], ends: [OLDEST, NEWEST] });
  if ('operationId' in world) ctx.world.eventLogSample ??= world.reads[0];
  await judgeInWorld(ctx, op, world, BUDGET_SHARES['event-log']);
  for (const [i, filter] of ['{"agentId":', '[1,2]', '"agentId"'].entries()) {
    await ctx.send({ operationId: op, key: `event-log/bad-filter-${i}`, query: { filter } }, { checks: [apply(invalidInputRefused, { what: `filter=${filter}`, parameter: 'filter' })] });
  }
};

// The block log has no direction: read twice the same way.
export const limitBlockLogPlan: Plan = async (ctx) =>
  judgeInWorld(ctx, 'getLimitBlockLog', await closeWorld(ctx, { operationId: 'getLimitBlockLog', directions: [{}, {}], ends: [{}, {}] }), BUDGET_SHARES['limit-block-log']);
