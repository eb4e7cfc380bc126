// No credentials and wrong credentials are refused on every operation; each method works.
import type { AuthMode } from '../types.js';
import { harmlessCall, isSessionCall, isWrite } from './harmless-calls.js';
import type { Plan, PlanContext } from './plan.js';

const WRONG: Record<string, AuthMode> = {
  basicAuth: 'wrong-basic',
  sessionCookie: 'wrong-session',
  apiToken: 'wrong-token',
  authTokenQuery: 'wrong-auth-token',
};

async function refusals(ctx: PlanContext): Promise<void> {
  for (const op of ctx.spec.operations) {
    if (op.security.length === 0) continue;
    if (isWrite(op) && !isSessionCall(op) && !ctx.policy.writes) {
      for (const check of ['unauthenticated-refused', 'wrong-credentials-refused']) ctx.skip(op.operationId, check, `${op.method.toUpperCase()} not sent: ${ctx.policy.reason}`);
      continue;
    }
    const call = harmlessCall(ctx, op);
    await ctx.send({ ...call, key: `auth/${op.operationId}/none`, actor: 'anonymous', auth: 'none' }, { checks: ['unauthenticated-refused'] });
    const schemes = [...new Set(op.security.flatMap((alternative) => Object.keys(alternative)))];
    for (const scheme of schemes) {
      const auth = WRONG[scheme];
      if (!auth) continue;
      await ctx.send({ ...call, key: `auth/${op.operationId}/${auth}`, actor: 'anonymous', auth }, { checks: ['wrong-credentials-refused'] });
    }
  }
}

async function methods(ctx: PlanContext): Promise<void> {
  const { client } = ctx;
  const admin = client.credentials('admin');
  const expectLogin = admin?.login;
  const checks = ['auth-method-accepted'];
  await ctx.send({ operationId: 'getCurrentUser', key: 'auth/method/basic' }, { checks, facts: { expectLogin } });
  await ctx.send({ operationId: 'createSession', key: 'auth/method/session-login', auth: 'none', body: admin });
  await ctx.send({ operationId: 'getCurrentUser', key: 'auth/method/session', auth: 'session' }, { checks, facts: { expectLogin } });
  await ctx.send({ operationId: 'getEventLog', key: 'auth/method/session-event-log', auth: 'session', query: { limit: '1' } }, { checks });
  await ctx.send({ operationId: 'deleteSession', key: 'auth/method/session-logout', auth: 'session' });
  if (client.token('admin')) {
    await ctx.send({ operationId: 'getCurrentUser', key: 'auth/method/token', auth: 'token' }, { checks, facts: { expectLogin } });
    await ctx.send({ operationId: 'getCurrentUser', key: 'auth/method/auth-token', auth: 'auth-token' }, { checks, facts: { expectLogin } });
  } else {
    ctx.skip('getCurrentUser', 'auth-method-accepted', 'no API token for the administrator (give --token); the token flow case covers tokens when writes are allowed');
  }
  const low = client.credentials('low');
  if (low) {
    await ctx.send({ operationId: 'getCurrentUser', key: 'auth/method/basic-low', actor: 'low' }, { checks, facts: { expectLogin: low.login } });
  }
}

export const authenticationPlan: Plan = {
  group: 'authentication',
  async run(ctx) {
    await refusals(ctx);
    await methods(ctx);
  },
};
