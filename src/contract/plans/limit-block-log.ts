// The limit-block log's filters, paging and order: a closed world of the log (read twice, as it
// has no direction), generated queries judged against its model.
import { closeWorld } from '../model/closed-world.js';
import { BUDGET_SHARES } from '../model/budget.js';
import type { Plan } from './plan.js';
import { judgeInWorld } from './list-in-world.js';

const OP = 'getLimitBlockLog';

export const limitBlockLogPlan: Plan = {
  async run(ctx) {
    const world = await closeWorld(ctx, { operationId: OP, directions: [{}, {}], ends: [{}, {}] });
    await judgeInWorld(ctx, OP, world, BUDGET_SHARES['limit-block-log']);
  },
};
