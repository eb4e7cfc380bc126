// Opt-in (--probe-limits): trip a rate limit with quick requests to one URI, then find the block in the log.
import { blockRecorded } from '../checks/step-checks.js';
import { apply } from '../checks/check.js';
import type { Plan } from './plan.js';

const PROBED = 'getCurrentUser';

export const probeLimitsPlan: Plan = async (ctx) => {
  if (!ctx.policy.probeLimits) {
    ctx.skip('getLimitBlockLog', 'block-recorded', 'rate limits are probed only with --probe-limits');
    return;
  }
  // The low-privilege user takes the block when there is one, so the administrator can still read the log.
  const actor = ctx.client.hasActor('low') ? 'low' : 'admin';
  const since = Date.now();
  let blocked = false;
  for (let i = 0; i < ctx.probe.requests && !blocked; i++) {
    const exchange = await ctx.send({ operationId: PROBED, key: `probe/${i}`, actor });
    blocked = exchange.response?.status === 429;
  }
  if (!blocked) {
    ctx.inconclusive('getLimitBlockLog', 'block-recorded', `no request was blocked after ${ctx.probe.requests} requests (the spec shows no numeric limits; raise --probe-requests)`);
    return;
  }
  const query = { from: String(since - 60_000), limit: String(ctx.maxRecords) };
  let log = await ctx.send({ operationId: 'getLimitBlockLog', key: 'probe/log', query });
  for (let waited = 0; log.response?.status === 429 && waited < ctx.probe.maxWaitMs; ) {
    const seconds = Number(log.response.headers['retry-after'] ?? 1);
    const ms = Math.min(Math.max(1, Number.isFinite(seconds) ? seconds : 1) * 1000, ctx.probe.maxWaitMs - waited);
    await ctx.probe.sleep(ms);
    waited += ms;
    log = await ctx.send({ operationId: 'getLimitBlockLog', key: 'probe/log', query });
  }
  if (log.response?.status === 429) {
    ctx.inconclusive('getLimitBlockLog', 'block-recorded', 'the limit-block log could not be read: the administrator is blocked too (raise --max-wait)');
    return;
  }
  const op = ctx.spec.operation(PROBED);
  const login = ctx.client.credentials(actor)?.login;
  ctx.evaluate(log, { checks: [apply(blockRecorded, { since, uri: op.path, ...(login === undefined ? {} : { login }) })] });
};
