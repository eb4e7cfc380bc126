// The meaning of the event log's query parameters, on whatever data the server has.
import { apply } from '../checks/define.js';
import { filterMatches } from '../checks/filter-matches.js';
import { invalidInputRefused } from '../checks/invalid-input-refused.js';
import { inverseOrder } from '../checks/inverse-order.js';
import { limitHonoured } from '../checks/limit-honoured.js';
import { pagesAgree } from '../checks/pages-agree.js';
import { sortOrder } from '../checks/sort-order.js';
import { timeRange } from '../checks/time-range.js';
import { typeFilter } from '../checks/type-filter.js';
import type { Exchange } from '../types.js';
import type { Plan, PlanContext, Row } from './plan.js';
import { rows, unreadable } from './plan.js';

const OP = 'getEventLog';
const SORTABLE = ['_id', 'agentId', 'type', 'entity.entityName', 'entity.entityType'];
const FILTERABLE = ['agentId', 'type', 'entity.entityName', 'payload.trapOid'];
const CHECKS = [limitHonoured, pagesAgree, sortOrder, inverseOrder, typeFilter, timeRange, filterMatches].map((c) => c.name);

const pick = (r: Row, path: string): unknown => path.split('.').reduce<unknown>((at, k) => (at as Row | undefined)?.[k], r);

async function paging(ctx: PlanContext, reference: Exchange, list: Row[], complete: boolean): Promise<void> {
  const { random, maxRecords } = ctx;
  const page = { idField: '_id', sortKey: 'timestamp', reference, referenceComplete: complete };
  const limit = random.int(1, Math.max(1, Math.min(list.length, maxRecords) - 1));
  await ctx.send(
    { operationId: OP, key: 'event-log/limit', query: { limit: String(limit) } },
    { checks: [apply(limitHonoured, { limit }), apply(pagesAgree, { limit, skip: 0, ...page })] },
  );
  const size = random.int(1, Math.max(1, Math.floor(list.length / 3)));
  const pages = Math.min(Math.ceil(list.length / size), 5);
  for (let i = 0; i < pages; i++) {
    const skip = i * size;
    await ctx.send(
      { operationId: OP, key: `event-log/page-${i}`, query: { skip: String(skip), limit: String(size) } },
      { checks: [apply(limitHonoured, { limit: size }), apply(pagesAgree, { limit: size, skip, ...page })] },
    );
  }
}

async function ordering(ctx: PlanContext): Promise<void> {
  const { random, maxRecords } = ctx;
  const limit = String(maxRecords);
  await ctx.send({ operationId: OP, key: 'event-log/sort-default-direction', query: { sortField: 'timestamp', limit } }, { checks: [apply(sortOrder, { sortField: 'timestamp' })] });
  for (const sortField of ['timestamp', ...random.sample(SORTABLE, 2)]) {
    const sortDirection = random.pick(['asc', 'desc'] as const);
    await ctx.send(
      { operationId: OP, key: `event-log/sort-${sortField}-${sortDirection}`, query: { sortField, sortDirection, limit } },
      { checks: [apply(sortOrder, { sortField, sortDirection })] },
    );
  }
  const sortDirection = random.pick(['asc', 'desc'] as const);
  const query = { sortField: 'timestamp', sortDirection, limit };
  const plain = await ctx.send({ operationId: OP, key: 'event-log/inverse-plain', query }, { checks: [apply(sortOrder, { sortField: 'timestamp', sortDirection })] });
  await ctx.send(
    { operationId: OP, key: 'event-log/inverse', query: { ...query, inverse: 'true' } },
    { checks: [apply(inverseOrder, { sortField: 'timestamp', sortDirection, plain })] },
  );
}

async function selection(ctx: PlanContext, reference: Exchange, list: Row[], complete: boolean): Promise<void> {
  const { random } = ctx;
  const limit = String(ctx.maxRecords);
  const against = { reference, referenceComplete: complete };
  for (const type of ['1', '2'] as const) {
    await ctx.send({ operationId: OP, key: `event-log/type-${type}`, query: { type, limit } }, { checks: [apply(typeFilter, { type, ...against })] });
  }
  const stamps = list.map((r) => r.timestamp).filter((t): t is number => typeof t === 'number');
  if (stamps.length > 0) {
    const [a, b] = [random.pick(stamps), random.pick(stamps)];
    const ranges = [{ from: Math.min(a, b), to: Math.max(a, b) }, { from: Math.max(a, b) }, { to: Math.min(a, b) }];
    for (const [i, range] of ranges.entries()) {
      const query = Object.fromEntries(Object.entries(range).map(([k, v]) => [k, String(v)]));
      await ctx.send({ operationId: OP, key: `event-log/time-${i}`, query: { ...query, limit } }, { checks: [apply(timeRange, { ...range, ...against })] });
    }
  }
  const candidates = FILTERABLE.flatMap((field) => list.filter((r) => typeof pick(r, field) === 'string').map((r) => ({ field, value: pick(r, field) })));
  if (candidates.length > 0) {
    const { field, value } = random.pick(candidates);
    await ctx.send(
      { operationId: OP, key: 'event-log/filter', query: { filter: JSON.stringify({ [field]: value }), limit } },
      { checks: [apply(filterMatches, { field, value, ...against })] },
    );
  }
  for (const [i, filter] of ['{"agentId":', '[1,2]', '"agentId"'].entries()) {
    await ctx.send({ operationId: OP, key: `event-log/bad-filter-${i}`, query: { filter } }, { checks: [apply(invalidInputRefused, { what: `filter=${filter}`, parameter: 'filter' })] });
  }
}

export const eventLogPlan: Plan = {
  async run(ctx) {
    const reference = await ctx.send(
      { operationId: OP, key: 'event-log/reference', query: { limit: String(ctx.maxRecords) } },
      { checks: [apply(limitHonoured, { limit: ctx.maxRecords }), apply(sortOrder, {})] },
    );
    ctx.world.eventLogSample ??= reference;
    const list = rows(reference);
    const why = unreadable(reference);
    if (why) {
      for (const check of CHECKS) ctx.inconclusive(OP, check, `the event log could not be read: ${why}`);
      return;
    }
    if (list.length < 2) {
      for (const check of CHECKS) ctx.skip(OP, check, list.length === 0 ? 'the event log is empty' : 'the event log holds one record');
      return;
    }
    const complete = list.length < ctx.maxRecords;
    await paging(ctx, reference, list, complete);
    await ordering(ctx);
    await selection(ctx, reference, list, complete);
  },
};
