// Runs the declarative cases of contracts/*.yaml: steps in order, values captured between them.
import type { CaseStep, ContractCase, Requirement } from '../cases/load-cases.js';
import { answerValue, capturedCredentials, fill } from '../cases/case-values.js';
import { caseExpectation } from '../checks/step-checks.js';
import { apply, resolveCitation } from '../checks/check.js';
import type { CaseCheckName } from '../checks/registry.js';
import { isAllowed } from '../safety.js';
import type { Exchange } from '../types.js';
import { LOW_USER_UNREAD, type Plan, type PlanContext } from './plan.js';

function unmet(ctx: PlanContext, requirement: Requirement): string | undefined {
  if (requirement === 'writes' && !ctx.policy.writes) return ctx.policy.reason;
  if (requirement === 'low-user' && !ctx.client.hasActor('low')) return 'no low-privilege user (--low-login/--low-password)';
  if (requirement === 'token' && !ctx.client.token('admin')) return 'no API token for the administrator (--token)';
  return undefined;
}

function variables(ctx: PlanContext): Map<string, unknown> {
  const admin = ctx.client.credentials('admin');
  const low = ctx.client.credentials('low');
  const vars = new Map<string, unknown>([
    ['admin.login', admin?.login],
    ['admin.password', admin?.password],
    ['admin.id', ctx.world.admin?.id],
    ['low.login', low?.login],
    ['low.password', low?.password],
    ['low.id', ctx.world.low?.id],
    ['seed', ctx.seed],
    ['unknownId', ctx.random.objectId()],
  ]);
  for (const [k, v] of vars) if (v === undefined) vars.delete(k);
  return vars;
}

async function captured(ctx: PlanContext, step: CaseStep, exchange: Exchange, vars: Map<string, unknown>): Promise<string | undefined> {
  for (const [name, from] of Object.entries(step.capture ?? {})) {
    const value = 'cookie' in from ? await ctx.client.cookie(step.as ?? 'admin', from.cookie) : answerValue(from, exchange.response);
    if (value === undefined || value === null || value === '') return name;
    vars.set(name, value);
  }
  return undefined;
}

export function casesPlan(cases: readonly ContractCase[]): Plan {
  return async (ctx) => {
    for (const c of cases) {
      const check: CaseCheckName = `case/${c.name}`;
      // A case with a step the safety policy forbids runs none of its steps, whether or not it says
      // `requires: [writes]`: half a case would be judged on what it never sent.
      const forbidden = c.steps.map((step) => ctx.spec.operation(step.operationId)).some((op) => !isAllowed(ctx.policy, op.method, op.operationId));
      const reason = c.requires.map((r) => unmet(ctx, r)).find((r) => r !== undefined) ?? (forbidden ? ctx.policy.reason : undefined);
      if (reason) {
        ctx.skip(c.operationId, check, reason);
        continue;
      }
      // A low-privilege user was given but the server did not show its record: the case cannot run because of an answer.
      if (c.requires.includes('low-user') && !ctx.world.low) {
        ctx.inconclusive(c.operationId, check, LOW_USER_UNREAD);
        continue;
      }
      const vars = variables(ctx);
      for (const [j, step] of c.steps.entries()) {
        const statuses = Array.isArray(step.expect.status) ? step.expect.status : [step.expect.status];
        const { name: _name, as, expect: _expect, capture: _capture, cite: _cite, ...sent } = step;
        const exchange = await ctx.send(
          { ...fill(sent, vars), key: `${check}/${j}`, actor: as ?? 'admin' },
          {
            checks: [
              apply(caseExpectation, {
                step: step.name,
                expect: { status: statuses, body: fill(step.expect.body, vars) },
                ...(step.cite ? { citation: resolveCitation(ctx.spec, step.cite) } : {}),
              }),
            ],
            reportAs: { operationId: c.operationId, check },
            credentials: (answered) => capturedCredentials(step, answered),
          },
        );
        if (step.capture && !statuses.includes(exchange.response?.status ?? 0)) {
          const got = exchange.response ? `got ${exchange.response.status}` : 'got no answer';
          ctx.inconclusive(c.operationId, check, `step "${step.name}" ${got}, so it captured nothing; the later steps did not run`);
          break;
        }
        const missing = await captured(ctx, step, exchange, vars);
        if (missing) {
          ctx.inconclusive(c.operationId, check, `step "${step.name}" captured no "${missing}"; the later steps did not run`);
          break;
        }
      }
    }
  };
}
