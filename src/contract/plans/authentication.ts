// No credentials and wrong credentials are refused on every operation; each method works.
import { authMethodAccepted } from '../checks/auth-method-accepted.js';
import { apply } from '../checks/define.js';
import { unauthenticatedRefused } from '../checks/unauthenticated-refused.js';
import { wrongCredentialsRefused } from '../checks/wrong-credentials-refused.js';
import { wrongAuthOf } from '../client/auth-schemes.js';
import { harmlessCall, isSessionCall, isWrite } from './harmless-calls.js';
import type { Plan, PlanContext } from './plan.js';


async function refusals(ctx: PlanContext): Promise<void> {
  for (const op of ctx.spec.operations) {
    if (op.security.length === 0) continue;
    if (isWrite(op) && !isSessionCall(op) && !ctx.policy.writes) {
      for (const check of [unauthenticatedRefused.name, wrongCredentialsRefused.name]) ctx.skip(op.operationId, check, `${op.method.toUpperCase()} not sent: ${ctx.policy.reason}`);
      continue;
    }
    const call = harmlessCall(ctx, op);
    await ctx.send({ ...call, key: `auth/${op.operationId}/none`, actor: 'anonymous', auth: 'none' }, { checks: [apply(unauthenticatedRefused)] });
    const schemes = [...new Set(op.security.flatMap((alternative) => Object.keys(alternative)))];
    for (const scheme of schemes) {
      const auth = wrongAuthOf(scheme);
      if (!auth) continue;
      await ctx.send({ ...call, key: `auth/${op.operationId}/${auth}`, actor: 'anonymous', auth }, { checks: [apply(wrongCredentialsRefused)] });
    }
  }
}

async function methods(ctx: PlanContext): Promise<void> {
  const { client } = ctx;
  const admin = client.credentials('admin');
  const expectLogin = admin?.login;
  const accepted = { checks: [apply(authMethodAccepted, { expectLogin })] };
  await ctx.send({ operationId: 'getCurrentUser', key: 'auth/method/basic' }, accepted);
  await ctx.send({ operationId: 'createSession', key: 'auth/method/session-login', auth: 'none', body: admin });
  await ctx.send({ operationId: 'getCurrentUser', key: 'auth/method/session', auth: 'session' }, accepted);
  await ctx.send({ operationId: 'getEventLog', key: 'auth/method/session-event-log', auth: 'session', query: { limit: '1' } }, { checks: [apply(authMethodAccepted, {})] });
  await ctx.send({ operationId: 'deleteSession', key: 'auth/method/session-logout', auth: 'session' });
  if (client.token('admin')) {
    await ctx.send({ operationId: 'getCurrentUser', key: 'auth/method/token', auth: 'token' }, accepted);
    await ctx.send({ operationId: 'getCurrentUser', key: 'auth/method/auth-token', auth: 'auth-token' }, accepted);
  } else {
    ctx.skip('getCurrentUser', authMethodAccepted.name, 'no API token for the administrator (give --token); the token flow case covers tokens when writes are allowed');
  }
  const low = client.credentials('low');
  if (low) {
    await ctx.send({ operationId: 'getCurrentUser', key: 'auth/method/basic-low', actor: 'low' }, { checks: [apply(authMethodAccepted, { expectLogin: low.login })] });
  }
}

export const authenticationPlan: Plan = {
  async run(ctx) {
    await refusals(ctx);
    await methods(ctx);
  },
};
