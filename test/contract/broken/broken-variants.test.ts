// Proves the runner can fail: each broken variant of the fake is caught by the right check on
// the right operation, while the healthy fake is not flagged.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runContract } from '../../../src/contract/run/run-contract.js';
import type { RunResult } from '../../../src/contract/run/results.js';
import { ADMIN, listeningFake, OPERATOR, VIEWER, type ListeningFake } from '../helpers/fake.js';
import { startBreakingProxy } from './breaking-proxy.js';
import { brokenVariants } from './breakages.js';

let fake: ListeningFake;
let spareToken: string;

beforeAll(async () => {
  fake = await listeningFake();
  expect(fake.app.fake.missingHandlers).toEqual([]);
});
afterAll(() => fake.close());
beforeEach(async () => {
  fake.app.fake.state.reset();
  // A valid token of a user the run never uses, for the variant that swaps tokens.
  const operator = fake.app.fake.state.users.byLogin('operator');
  const response = await fake.app.inject({ method: 'POST', url: `/node/api/users/${operator?.id ?? ''}/auth-token`, headers: { authorization: `Basic ${Buffer.from('admin:admin-password').toString('base64')}` } });
  spareToken = JSON.parse(response.body) as string;
});

const findings = (result: RunResult) => result.outcomes.flatMap((o) => o.failures);

describe('broken variants of the fake', () => {
  for (const variant of brokenVariants) {
    it(`${variant.name}: ${variant.breaks} → ${variant.verdict ?? 'violation'} of ${variant.caughtBy.check} on ${variant.caughtBy.operationId}`, async () => {
      const proxy = await startBreakingProxy(fake.url, variant.breakage({ spareToken }));
      try {
        const result = await runContract({ baseUrl: proxy.url, admin: ADMIN, low: VIEWER, operator: OPERATOR, seed: 3, groups: variant.groups });
        const verdict = variant.verdict ?? 'violation';
        const caught = findings(result).filter((f) => f.check === variant.caughtBy.check && f.operationId === variant.caughtBy.operationId && f.verdict === verdict);
        const listed = JSON.stringify(findings(result).map((f) => `${f.operationId} ${f.check} ${f.verdict}: ${f.message}`), null, 1);
        expect(caught.length, listed).toBeGreaterThan(0);
        if (variant.shrunkTo !== undefined) {
          // A sequence's repro: numbered curl steps, shrunk.
          const steps = caught[0]?.curl.match(/^\d+\. curl /gm) ?? [];
          expect(caught[0]?.curl, listed).toMatch(/^1\. curl /);
          expect(steps.length, caught[0]?.curl).toBeLessThanOrEqual(variant.shrunkTo);
        }
        if (verdict === 'note') expect(result.violations, listed).toBe(0);
        expect(result.exitCode).toBe(verdict === 'violation' ? 1 : 0);
      } finally {
        await proxy.close();
      }
    });
  }

  it('the default run (administrator credentials only, every group) fails a server that lets a known login in with any password', async () => {
    const variant = brokenVariants.find((v) => v.name === 'any-password');
    const proxy = await startBreakingProxy(fake.url, variant?.breakage({ spareToken }) ?? {});
    try {
      const result = await runContract({ baseUrl: proxy.url, admin: ADMIN, seed: 3 });
      const caught = findings(result).filter((f) => f.check === 'wrong-credentials-refused' && f.verdict === 'violation');
      expect(caught.map((f) => f.operationId)).toEqual(expect.arrayContaining(['getCurrentUser', 'getEventLog', 'createSession']));
      expect(caught.find((f) => f.operationId === 'getCurrentUser')?.message).toBe('a request with Basic credentials of a known login with a wrong password was accepted with 200');
      expect(result.exitCode).toBe(1);
    } finally {
      await proxy.close();
    }
  });

  it('the same groups against the healthy fake through a proxy that breaks nothing find nothing', async () => {
    const proxy = await startBreakingProxy(fake.url, {});
    try {
      const groups = [...new Set(brokenVariants.flatMap((v) => v.groups))];
      const result = await runContract({ baseUrl: proxy.url, admin: ADMIN, low: VIEWER, operator: OPERATOR, seed: 3, groups });
      expect(findings(result).map((f) => `${f.operationId} ${f.check} ${f.verdict}: ${f.message}`)).toEqual([]);
      expect(result.exitCode).toBe(0);
    } finally {
      await proxy.close();
    }
  });
});
