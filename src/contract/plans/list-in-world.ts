// A list operation judged in its closed world, or its model checks said not to have run, and why.
import { apply } from '../checks/check.js';
import { limitHonoured } from '../checks/model-checks.js';
import { isNoWorld, type ClosedWorld, type NoWorld } from '../model/closed-world.js';
import { checkAgainstModel, modelChecksOf } from '../model/model-queries.js';
import type { PlanContext } from './plan.js';
import { rows } from './plan.js';

/**
 * With a world: the world is shared (ctx.world.closedWorlds) and its queries judged. An empty
 * log shows nothing of the rules, so it is confirmed by a read without `limit` first: records
 * there are a finding of limit-honoured, none means the checks are skipped.
 */
export async function judgeInWorld(ctx: PlanContext, operationId: string, world: ClosedWorld | NoWorld, share: number): Promise<void> {
  const checks = modelChecksOf(ctx, operationId);
  if (isNoWorld(world)) {
    for (const check of checks) {
      if (world.kind === 'skip') ctx.skip(operationId, check, world.why);
      else ctx.inconclusive(operationId, check, world.why);
    }
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
