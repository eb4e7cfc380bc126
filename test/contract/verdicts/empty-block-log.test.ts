// An empty limit-block log shows nothing of its boolean filters: a server that ignores them
// answers the same empty list. The checks of the log are skipped with the reason, never `ok`,
// once a read without `limit` confirms it is empty; records there are a finding.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runContract } from '../../../src/contract/run/run-contract.js';
import { statusOf } from '../../../src/contract/run/results.js';
import { json, startBreakingProxy } from '../broken/breaking-proxy.js';
import { ADMIN, listeningFake, type ListeningFake } from '../helpers/fake.js';

let fake: ListeningFake;
beforeAll(async () => {
  fake = await listeningFake();
});
afterAll(() => fake.close());

const blockLogChecks = (result: Awaited<ReturnType<typeof runContract>>) =>
  Object.fromEntries(result.outcomes.filter((o) => o.operationId === 'getLimitBlockLog' && ['boolean-filter', 'pages-agree', 'time-range'].includes(o.check)).map((o) => [o.check, statusOf(o)]));

describe('an empty limit-block log', () => {
  it('skips the boolean filters, paging and time range, and sends no filter, once a read without limit confirms it', async () => {
    const seen: string[] = [];
    const proxy = await startBreakingProxy(fake.url, {
      request: (r) => {
        if (r.method !== 'GET' || r.url.pathname !== '/node/api/limit-block-log') return r;
        seen.push(r.url.search);
        return json(200, []);
      },
    });
    try {
      const result = await runContract({ baseUrl: proxy.url, admin: ADMIN, seed: 6, groups: ['limit-block-log'] });
      expect(blockLogChecks(result)).toEqual({ 'boolean-filter': 'skipped', 'pages-agree': 'skipped', 'time-range': 'skipped' });
      expect(result.outcomes.find((o) => o.check === 'boolean-filter')?.skipped).toBe('the log is empty (read with and without limit)');
      expect(seen).toEqual(['?limit=201', '?limit=201', '?limit=201', '']);
    } finally {
      await proxy.close();
    }
  });

  it('a log empty only when read with a limit is a violation of limit-honoured', async () => {
    const proxy = await startBreakingProxy(fake.url, {
      response: (r, res) => (r.url.pathname === '/node/api/limit-block-log' && r.url.searchParams.has('limit') ? { ...res, body: '[]' } : res),
    });
    try {
      const result = await runContract({ baseUrl: proxy.url, admin: ADMIN, seed: 6, groups: ['limit-block-log'] });
      const limit = result.outcomes.find((o) => o.operationId === 'getLimitBlockLog' && o.check === 'limit-honoured');
      expect(limit?.failures[0]).toMatchObject({ verdict: 'violation', message: expect.stringMatching(/^limit=201 returned no record; without limit \d+ came/) as unknown });
      expect(result.exitCode).toBe(1);
    } finally {
      await proxy.close();
    }
  });

  it('a log with blocks gets them judged, which shows the test above could fail', async () => {
    const result = await runContract({ baseUrl: fake.url, admin: ADMIN, seed: 6, groups: ['limit-block-log'] });
    expect(blockLogChecks(result)).toEqual({ 'boolean-filter': 'passed', 'pages-agree': 'passed', 'time-range': 'passed' });
  });
});
