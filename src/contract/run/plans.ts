// The groups of checks, in the order they run. The probe of rate limits runs last: it may get the prober blocked.
import type { ContractCase } from '../cases/case-schema.js';
import { authenticationPlan } from '../plans/authentication.js';
import { casesPlan } from '../plans/cases.js';
import { eventLogPlan } from '../plans/event-log.js';
import { limitBlockLogPlan } from '../plans/limit-block-log.js';
import { negativeInputsPlan } from '../plans/negative-inputs.js';
import { payloadUpdatePlan } from '../plans/payload-update.js';
import { permissionsPlan } from '../plans/permissions.js';
import type { Plan } from '../plans/plan.js';
import { probeLimitsPlan } from '../plans/probe-limits.js';

export { GROUPS } from './groups.js';

export function plansFor(cases: readonly ContractCase[]): Plan[] {
  return [authenticationPlan, permissionsPlan, eventLogPlan, payloadUpdatePlan, limitBlockLogPlan, negativeInputsPlan, casesPlan(cases), probeLimitsPlan];
}
