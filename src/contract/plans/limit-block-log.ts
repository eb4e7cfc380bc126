// The limit-block log's filters and paging, on whatever blocks the server has recorded.
import { booleanFilter } from '../checks/boolean-filter.js';
import { apply } from '../checks/define.js';
import { limitHonoured } from '../checks/limit-honoured.js';
import { pagesAgree } from '../checks/pages-agree.js';
import { timeRange } from '../checks/time-range.js';
import type { Plan } from './plan.js';
import { rows, unreadable } from './plan.js';

const OP = 'getLimitBlockLog';
const FIELDS = ['ip', 'login', 'uri', 'user'];

export const limitBlockLogPlan: Plan = {
  async run(ctx) {
    const { random, maxRecords } = ctx;
    const limit = String(maxRecords);
    const reference = await ctx.send({ operationId: OP, key: 'block-log/reference', query: { limit } }, { checks: [apply(limitHonoured, { limit: maxRecords })] });
    const list = rows(reference);
    const why = unreadable(reference);
    if (why) {
      for (const check of [booleanFilter.name, pagesAgree.name, timeRange.name]) ctx.inconclusive(OP, check, `the limit-block log could not be read: ${why}`);
      return;
    }
    // An empty log answers every filter with the same empty list, whether the server honours it or not.
    if (list.length === 0) {
      for (const check of [booleanFilter.name, pagesAgree.name, timeRange.name]) ctx.skip(OP, check, 'the limit-block log is empty');
      return;
    }
    for (const field of FIELDS) {
      for (const value of [true, false]) {
        await ctx.send(
          { operationId: OP, key: `block-log/${field}-${value}`, query: { [field]: String(value), limit } },
          { checks: [apply(booleanFilter, { field, value, reference })] },
        );
      }
    }
    if (list.length < 2) {
      for (const check of [pagesAgree.name, timeRange.name]) ctx.skip(OP, check, 'the limit-block log holds one record');
      return;
    }
    const against = { reference, referenceComplete: list.length < maxRecords };
    const page = { sortKey: 'timestamp', ...against };
    const size = random.int(1, Math.max(1, Math.floor(list.length / 2)));
    for (let i = 0; i < Math.min(Math.ceil(list.length / size), 3); i++) {
      await ctx.send(
        { operationId: OP, key: `block-log/page-${i}`, query: { skip: String(i * size), limit: String(size) } },
        { checks: [apply(limitHonoured, { limit: size }), apply(pagesAgree, { limit: size, skip: i * size, ...page })] },
      );
    }
    const stamps = list.map((r) => r.timestamp).filter((t): t is number => typeof t === 'number');
    if (stamps.length > 0) {
      const [a, b] = [random.pick(stamps), random.pick(stamps)];
      const range = { from: Math.min(a, b), to: Math.max(a, b) };
      await ctx.send(
        { operationId: OP, key: 'block-log/time', query: { from: String(range.from), to: String(range.to), limit } },
        { checks: [apply(timeRange, { ...range, ...against })] },
      );
    }
  },
};
