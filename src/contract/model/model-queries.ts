// Generated queries of a list operation, each answer compared with the model of its closed
// world; a difference is shrunk to the smallest query that still shows it and reported by the
// check of the rule it breaks, with that query's curl line.
import { apply, isInconclusive } from '../checks/check.js';
import { modelChecks } from '../checks/model-checks.js';
import type { PlanContext } from '../plans/plan.js';
import type { Exchange } from '../types.js';
import type { ClosedWorld } from './closed-world.js';
import { faultsOf, type ModelFacts } from './faults.js';
import { type ListModel, judgedBy, modelChecksOf, type ModelCheckName, type Query } from './list-model.js';
import { searchAndShrink } from './property-run.js';
import { examplesOf, queriesOf } from './query-arbitraries.js';

const CHECKS = new Map(modelChecks.map((check) => [check.name, check]));

/**
 * Judges the reads that made the world and the generated queries against the model, within the
 * plan's share of the budget. Checks that no case reached are inconclusive.
 */
export async function checkAgainstModel(ctx: PlanContext, world: ClosedWorld, share: number): Promise<void> {
  const { operationId } = world;
  const model: ListModel = { op: ctx.spec.operation(operationId), world };
  const all = modelChecksOf(model.op);
  const reached = new Set<ModelCheckName>();
  const judge = (exchange: Exchange, query: Query, names: readonly ModelCheckName[], found?: string) => {
    const facts: ModelFacts = { query, model, ...(found ? { found } : {}) };
    for (const name of names) reached.add(name);
    ctx.evaluate(exchange, { checks: names.map((name) => apply(CHECKS.get(name)!, facts)) });
  };
  const result = await searchAndShrink({
    seed: ctx.seed,
    budgetMs: ctx.budgetMs,
    label: operationId,
    share,
    arbitrary: queriesOf(model.op, world, ctx.maxRecords),
    examples: examplesOf(model.op, world),
    ...(ctx.replayCounts ? { drawn: ctx.drawnCases.get(operationId) ?? 0 } : {}),
    runCase: async (query: Query, step: string) => {
      const exchange = await ctx.send({ operationId, key: `${operationId}/${step}`, query });
      const faults = faultsOf(model.op, exchange, { query, model });
      const failing = isInconclusive(faults) ? [] : [...new Set(faults.map((f) => f.check))];
      if (failing.length === 0) judge(exchange, query, judgedBy(model.op, query));
      return { failing, evidence: { exchange, query } };
    },
  });
  if (!ctx.replayCounts) ctx.drawnCases.set(operationId, result.drawn);
  const { found } = result;
  if (found) judge(found.evidence.exchange, found.evidence.query, found.failing as ModelCheckName[], found.how);
  // The reads that made the world are queries too: what they show is reported on them when the
  // search found nothing (else it is most likely the same fault).
  for (const read of world.reads) {
    const query = queryOf(read);
    const faults = faultsOf(model.op, read, { query, model });
    const failing = found || isInconclusive(faults) ? [] : [...new Set(faults.map((f) => f.check))];
    judge(read, query, failing.length > 0 ? failing : judgedBy(model.op, query).filter((name) => !found?.failing.includes(name)));
  }
  for (const name of all) if (!reached.has(name)) ctx.inconclusive(operationId, name, 'no generated query within the budget reached it');
}

/** The query an exchange sent, read back from its URL. */
function queryOf(exchange: Exchange): Query {
  const params = new URL(exchange.request.url).searchParams;
  return Object.fromEntries([...params].filter(([name]) => name !== 'api-token' && name !== 'auth-token'));
}
