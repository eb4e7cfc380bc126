// What did not run is inconclusive, never `ok`: its own result, counted, and failing --strict.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apply } from '../../../src/contract/checks/check.js';
import { sortOrder } from '../../../src/contract/checks/model-checks.js';
import { createRecorder } from '../../../src/contract/run/recorder.js';
import { runContract } from '../../../src/contract/run/run-contract.js';
import { statusOf } from '../../../src/contract/run/results.js';
import { createSecrets } from '../../../src/shared/redaction/secret-values.js';
import { startBreakingProxy, type Breakage } from '../broken/breaking-proxy.js';
import { ADMIN, listeningFake, VIEWER, type ListeningFake } from '../helpers/fake.js';
import { context, exchange, specAndValidator } from '../helpers/synthetic.js';

let fake: ListeningFake;
beforeAll(async () => {
  fake = await listeningFake();
});
afterAll(() => fake.close());
beforeEach(() => fake.app.fake.state.reset());

async function through(breakage: Breakage, options: { groups: string[]; strict?: boolean }) {
  const proxy = await startBreakingProxy(fake.url, breakage);
  try {
    return await runContract({ baseUrl: proxy.url, admin: ADMIN, low: VIEWER, seed: 9, ...options });
  } finally {
    await proxy.close();
  }
}

// 4.1's body is not shown: a token wrapped in an object is a note, but the flow cannot go on.
const wrappedToken: Breakage = {
  response: (r, res) =>
    r.method === 'POST' && r.url.pathname.endsWith('/auth-token') && res.status === 200 ? { ...res, body: JSON.stringify({ token: JSON.parse(res.body) as string }) } : res,
};

describe('inconclusive', () => {
  it('a case whose later steps did not run (the token could not be captured) is inconclusive, not ok', async () => {
    const result = await through(wrappedToken, { groups: ['cases'] });
    const flow = result.outcomes.find((o) => o.check === 'case/token-flow');
    expect(flow && statusOf(flow)).toBe('inconclusive');
    expect(flow?.inconclusive).toBe('step "create a token for the low-privilege user" captured no "first"; the later steps did not run');
    expect(result).toMatchObject({ violations: 0, inconclusive: 1, exitCode: 0 });
  });

  it('fails the run with --strict', async () => {
    const result = await through(wrappedToken, { groups: ['cases'], strict: true });
    expect(result).toMatchObject({ violations: 0, inconclusive: 1, exitCode: 1 });
  });

  it('the meaning checks of a list the server would not give are inconclusive', async () => {
    const refused: Breakage = { response: (r, res) => (r.url.pathname === '/node/api/event-log' ? { status: 404, headers: { 'content-type': 'application/json' }, body: '{"status":404,"code":"NOT_FOUND","message":"no"}' } : res) };
    const result = await through(refused, { groups: ['event-log'] });
    const checks = result.outcomes.filter((o) => o.group === 'event-log' && statusOf(o) === 'inconclusive').map((o) => o.check).sort();
    expect(checks).toEqual(['filter-matches', 'inverse-order', 'limit-honoured', 'pages-agree', 'records-consistent', 'sort-order', 'time-range', 'type-filter']);
    const sort = result.outcomes.find((o) => o.check === 'sort-order');
    expect(sort?.inconclusive).toContain('the log could not be read: answered 404');
  });

  it('a check of an answer that is not the list it reads says why instead of passing', async () => {
    expect(sortOrder.run(exchange('getEventLog', { status: 400, body: { status: 400 } }), await context(), { query: { sortField: 'timestamp' } })).toEqual({ inconclusive: 'answered 400, not a list' });
  });

  it('a request without an answer leaves every check but transport-error inconclusive', async () => {
    const { spec, validator } = await specAndValidator();
    const recorder = createRecorder({ spec, validator }, createSecrets());
    recorder.evaluate({ ...exchange('getEventLog', undefined), error: 'ECONNRESET: socket hang up' }, { checks: [apply(sortOrder, { query: {} })] });
    const statuses = Object.fromEntries(recorder.outcomes().map((o) => [o.check, statusOf(o)]));
    expect(statuses).toEqual({
      'transport-error': 'failed',
      'not-server-error': 'inconclusive',
      'status-documented': 'inconclusive',
      'content-type': 'inconclusive',
      'response-schema': 'inconclusive',
      'no-sensitive-data': 'inconclusive',
      'sort-order': 'inconclusive',
    });
  });
});
