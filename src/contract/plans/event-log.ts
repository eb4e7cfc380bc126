// The meaning of the event log's query parameters, on whatever data the server has.
import type { Plan, PlanContext, Row } from './plan.js';
import { rows, unreadable } from './plan.js';

const OP = 'getEventLog';
const SORTABLE = ['_id', 'agentId', 'type', 'entity.entityName', 'entity.entityType'];
const FILTERABLE = ['agentId', 'type', 'entity.entityName', 'payload.trapOid'];
const CHECKS = ['limit-honoured', 'pages-agree', 'sort-order', 'inverse-order', 'type-filter', 'time-range', 'filter-matches'];

const pick = (r: Row, path: string): unknown => path.split('.').reduce<unknown>((at, k) => (at as Row | undefined)?.[k], r);

async function paging(ctx: PlanContext, reference: Awaited<ReturnType<PlanContext['send']>>, list: Row[], complete: boolean): Promise<void> {
  const { random, maxRecords } = ctx;
  const page = { idField: '_id', sortKey: 'timestamp', referenceComplete: complete };
  const limit = random.int(1, Math.max(1, Math.min(list.length, maxRecords) - 1));
  await ctx.send(
    { operationId: OP, key: 'event-log/limit', query: { limit: String(limit) } },
    { checks: ['limit-honoured', 'pages-agree'], facts: { limit, skip: 0, ...page }, related: { reference } },
  );
  const size = random.int(1, Math.max(1, Math.floor(list.length / 3)));
  const pages = Math.min(Math.ceil(list.length / size), 5);
  for (let i = 0; i < pages; i++) {
    const skip = i * size;
    await ctx.send(
      { operationId: OP, key: `event-log/page-${i}`, query: { skip: String(skip), limit: String(size) } },
      { checks: ['limit-honoured', 'pages-agree'], facts: { limit: size, skip, ...page }, related: { reference } },
    );
  }
}

async function ordering(ctx: PlanContext): Promise<void> {
  const { random, maxRecords } = ctx;
  const limit = String(maxRecords);
  await ctx.send({ operationId: OP, key: 'event-log/sort-default-direction', query: { sortField: 'timestamp', limit } }, { checks: ['sort-order'], facts: { sortField: 'timestamp' } });
  for (const sortField of ['timestamp', ...random.sample(SORTABLE, 2)]) {
    const sortDirection = random.pick(['asc', 'desc'] as const);
    await ctx.send(
      { operationId: OP, key: `event-log/sort-${sortField}-${sortDirection}`, query: { sortField, sortDirection, limit } },
      { checks: ['sort-order'], facts: { sortField, sortDirection } },
    );
  }
  const sortDirection = random.pick(['asc', 'desc'] as const);
  const query = { sortField: 'timestamp', sortDirection, limit };
  const plain = await ctx.send({ operationId: OP, key: 'event-log/inverse-plain', query }, { checks: ['sort-order'], facts: { sortField: 'timestamp', sortDirection } });
  await ctx.send(
    { operationId: OP, key: 'event-log/inverse', query: { ...query, inverse: 'true' } },
    { checks: ['inverse-order'], facts: { sortField: 'timestamp', sortDirection }, related: { plain } },
  );
}

async function selection(ctx: PlanContext, reference: Awaited<ReturnType<PlanContext['send']>>, list: Row[], complete: boolean): Promise<void> {
  const { random } = ctx;
  const limit = String(ctx.maxRecords);
  const related = { reference };
  for (const type of ['1', '2']) {
    await ctx.send({ operationId: OP, key: `event-log/type-${type}`, query: { type, limit } }, { checks: ['type-filter'], facts: { type, referenceComplete: complete }, related });
  }
  const stamps = list.map((r) => r.timestamp).filter((t): t is number => typeof t === 'number');
  if (stamps.length > 0) {
    const [a, b] = [random.pick(stamps), random.pick(stamps)];
    const ranges = [{ from: Math.min(a, b), to: Math.max(a, b) }, { from: Math.max(a, b) }, { to: Math.min(a, b) }];
    for (const [i, range] of ranges.entries()) {
      const query = Object.fromEntries(Object.entries(range).map(([k, v]) => [k, String(v)]));
      await ctx.send({ operationId: OP, key: `event-log/time-${i}`, query: { ...query, limit } }, { checks: ['time-range'], facts: { ...range, referenceComplete: complete }, related });
    }
  }
  const candidates = FILTERABLE.flatMap((field) => list.filter((r) => typeof pick(r, field) === 'string').map((r) => ({ field, value: pick(r, field) })));
  if (candidates.length > 0) {
    const { field, value } = random.pick(candidates);
    await ctx.send(
      { operationId: OP, key: 'event-log/filter', query: { filter: JSON.stringify({ [field]: value }), limit } },
      { checks: ['filter-matches'], facts: { field, value, referenceComplete: complete }, related },
    );
  }
  for (const [i, filter] of ['{"agentId":', '[1,2]', '"agentId"'].entries()) {
    await ctx.send({ operationId: OP, key: `event-log/bad-filter-${i}`, query: { filter } }, { checks: ['invalid-input-refused'], facts: { what: `filter=${filter}`, parameter: 'filter' } });
  }
}

export const eventLogPlan: Plan = {
  group: 'event-log',
  async run(ctx) {
    const reference = await ctx.send(
      { operationId: OP, key: 'event-log/reference', query: { limit: String(ctx.maxRecords) } },
      { checks: ['limit-honoured', 'sort-order'], facts: { limit: ctx.maxRecords } },
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
