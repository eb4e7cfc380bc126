// The meaning of the event log's query parameters: a closed world of the log, generated
// queries judged against its model, and filters that are no filters refused.
import { apply } from '../checks/check.js';
import { invalidInputRefused } from '../checks/step-checks.js';
import { closeWorld } from '../model/closed-world.js';
import { BUDGET_SHARES } from '../model/budget.js';
import type { Plan } from './plan.js';
import { judgeInWorld } from './list-in-world.js';

const OP = 'getEventLog';
const OLDEST = { sortField: 'timestamp', sortDirection: 'asc' };
const NEWEST = { sortField: 'timestamp', sortDirection: 'desc' };

export const eventLogPlan: Plan = {
  async run(ctx) {
    const world = await closeWorld(ctx, { operationId: OP, directions: [OLDEST, NEWEST], ends: [OLDEST, NEWEST] });
    if ('operationId' in world) ctx.world.eventLogSample ??= world.reads[0];
    await judgeInWorld(ctx, OP, world, BUDGET_SHARES['event-log']);
    for (const [i, filter] of ['{"agentId":', '[1,2]', '"agentId"'].entries()) {
      await ctx.send({ operationId: OP, key: `event-log/bad-filter-${i}`, query: { filter } }, { checks: [apply(invalidInputRefused, { what: `filter=${filter}`, parameter: 'filter' })] });
    }
  },
};
