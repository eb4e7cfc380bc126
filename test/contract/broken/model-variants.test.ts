// Servers that read the list parameters wrongly are caught by the generated queries: each by the
// check of the rule it breaks, on the right operation, with a shrunk query and its curl line. A
// note (what the document chose) fails only --strict.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runContract } from '../../../src/contract/run/run-contract.js';
import type { RunResult } from '../../../src/contract/run/results.js';
import { ADMIN, listeningFake, type ListeningFake } from '../helpers/fake.js';
import { startBreakingProxy } from './breaking-proxy.js';
import { modelBreakages } from './model-breakages.js';

let fake: ListeningFake;
beforeAll(async () => {
  fake = await listeningFake();
});
afterAll(() => fake.close());
beforeEach(() => fake.app.fake.state.reset());

const findings = (result: RunResult) => result.outcomes.flatMap((o) => o.failures);
const groupOf = { getEventLog: 'event-log', getLimitBlockLog: 'limit-block-log' } as const;

describe('list servers broken one way, judged against the model', () => {
  for (const variant of modelBreakages) {
    it(`${variant.name}: ${variant.breaks} → ${variant.verdict} of ${variant.check} on ${variant.operationId}`, async () => {
      const proxy = await startBreakingProxy(fake.url, variant.breakage);
      try {
        // A budget above the default, so that a loaded machine still reaches the failing cases.
        const result = await runContract({ baseUrl: proxy.url, admin: ADMIN, seed: 11, groups: [groupOf[variant.operationId]], strict: true, budgetMs: 10_000 });
        const listed = JSON.stringify(findings(result).map((f) => `${f.operationId} ${f.check} ${f.verdict}: ${f.message}\n${f.curl}`), null, 1);
        const caught = findings(result).find((f) => f.check === variant.check && f.operationId === variant.operationId && f.verdict === variant.verdict);
        expect(caught, listed).toBeDefined();
        // The shrunk query, replayable from the seed, and its curl line.
        expect(caught?.message).toMatch(/shrunk in \d+ steps; --seed 11 replays it/);
        expect(caught?.curl).toMatch(new RegExp(`^curl -sS -i 'http://127\\.0\\.0\\.1:\\d+${variant.operationId === 'getEventLog' ? '/node/api/event-log' : '/node/api/limit-block-log'}`));
        if (variant.check !== 'filter-matches') expect(caught?.curl).not.toContain('filter=');
        if (variant.verdict === 'note') expect(result.violations, listed).toBe(0);
        expect(result.exitCode).toBe(1);
      } finally {
        await proxy.close();
      }
    }, 120_000);
  }

  it('the same seed finds the same shrunk query again', async () => {
    const variant = modelBreakages.find((v) => v.name === 'limit-counts-the-skipped');
    const proxy = await startBreakingProxy(fake.url, variant?.breakage ?? {});
    try {
      const queries: string[] = [];
      for (let i = 0; i < 2; i++) {
        const result = await runContract({ baseUrl: proxy.url, admin: ADMIN, seed: 12, groups: ['event-log'], budgetMs: 10_000 });
        const found = findings(result).find((f) => f.check === 'pages-agree');
        queries.push(new URL(/'(http[^']+)'/.exec(found?.curl ?? '')?.[1] ?? 'http://none/').search);
      }
      expect(queries[0]).toMatch(/skip=\d+&limit=\d+/);
      expect(queries[1]).toBe(queries[0]);
    } finally {
      await proxy.close();
    }
  }, 120_000);
});

