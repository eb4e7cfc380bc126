// The plan of each group. Keyed by the group names of groups.ts, so a group without a plan, or a
// plan under no group, is a type error; the run follows the order of GROUPS. The probe of rate
// limits runs last: it may get the prober blocked.
import type { ContractCase } from '../cases/case-schema.js';
import { authenticationPlan } from '../plans/authentication.js';
import { casesPlan } from '../plans/cases.js';
import { eventLogPlan } from '../plans/event-log.js';
import { limitBlockLogPlan } from '../plans/limit-block-log.js';
import { negativeInputsPlan } from '../plans/negative-inputs.js';
import { permissionsPlan } from '../plans/permissions.js';
import type { Plan } from '../plans/plan.js';
import { probeLimitsPlan } from '../plans/probe-limits.js';
import { sequencesPlan } from '../plans/sequences.js';
import { GROUPS, type Group } from './groups.js';

export { GROUPS, isGroup, type Group } from './groups.js';

export function plansFor(cases: readonly ContractCase[]): Readonly<Record<Group, Plan>> {
  return {
    authentication: authenticationPlan,
    permissions: permissionsPlan,
    'event-log': eventLogPlan,
    sequences: sequencesPlan,
    'limit-block-log': limitBlockLogPlan,
    'negative-inputs': negativeInputsPlan,
    cases: casesPlan(cases),
    'probe-limits': probeLimitsPlan,
  };
}

/** The plans of the chosen groups (all when none are chosen), in the order of GROUPS. */
export function plansInOrder(cases: readonly ContractCase[], chosen?: readonly string[]): [Group, Plan][] {
  const plans = plansFor(cases);
  return GROUPS.filter((group) => !chosen || chosen.includes(group)).map((group) => [group, plans[group]]);
}
