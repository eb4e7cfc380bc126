// A valid answer the runner does not read whole (over its body limit) or does not parse (past its
// bounds of depth and size) is not the server's fault: the server answered, and what depends on
// the body is inconclusive, never a violation and never ok. What the status alone shows is judged.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBreakingProxy, type Breakage } from '../broken/breaking-proxy.js';
import { ADMIN, listeningFake, type ListeningFake } from '../helpers/fake.js';
import { check } from './hostile-server.js';

let fake: ListeningFake;
beforeAll(async () => {
  fake = await listeningFake();
});
afterAll(() => fake.close());

interface Report {
  violations: number;
  inconclusive: number;
  outcomes: { operationId: string; check: string; exchanges: number; inconclusive?: string; failures: { verdict: string; message: string }[] }[];
}

const currentUser = (change: (body: string) => string): Breakage => ({
  response: (r, res) => (r.method === 'GET' && r.url.pathname === '/node/api/users/current' && res.status === 200 ? { ...res, body: change(res.body) } : res),
});

const variants = [
  // Whitespace is valid JSON: the same record, past the 1 MiB the runner reads.
  { name: 'a record padded past the body limit', breakage: currentUser((body) => `${body}${' '.repeat(1100 * 1024)}`), reason: /larger than \d+ bytes/ },
  // A record with a long list of its own: JSON past the number of values the runner parses.
  { name: 'a record with more values than the runner parses', breakage: currentUser((body) => JSON.stringify({ ...(JSON.parse(body) as object), history: Array.from({ length: 20_000 }, () => 0) })), reason: /holds more than \d+ values/ },
];

describe('the runner against answers it does not read whole', () => {
  for (const variant of variants) {
    it(`${variant.name}: the body's checks are inconclusive, the status is judged, no violation`, async () => {
      const proxy = await startBreakingProxy(fake.url, variant.breakage);
      try {
        const { code, stdout, stderr } = await check({ baseUrl: proxy.url, login: ADMIN.login, password: ADMIN.password, reporter: 'json', only: ['authentication'], seed: 4 });
        const report = JSON.parse(stdout) as Report;
        const on = (name: string) => report.outcomes.find((o) => o.operationId === 'getCurrentUser' && o.check === name);
        const listed = JSON.stringify(report.outcomes.filter((o) => o.failures.length > 0 || o.inconclusive), null, 1);
        expect(report.violations, listed).toBe(0);
        expect(code, stderr).toBe(0);
        // The server answered each time.
        expect(on('transport-error')?.failures).toEqual([]);
        expect(on('transport-error')?.inconclusive).toBeUndefined();
        for (const name of ['content-type', 'response-schema', 'no-sensitive-data', 'auth-method-accepted']) {
          expect(on(name)?.inconclusive, name).toMatch(variant.reason);
        }
        // Refusals are judged by their status: an anonymous request still got its 401.
        expect(on('unauthenticated-refused')).toMatchObject({ failures: [] });
        expect(on('unauthenticated-refused')?.inconclusive).toBeUndefined();
        expect(report.inconclusive).toBeGreaterThan(0);
        const strict = await check({ baseUrl: proxy.url, login: ADMIN.login, password: ADMIN.password, reporter: 'json', only: ['authentication'], seed: 4, strict: true });
        expect(strict.code).toBe(1);
      } finally {
        await proxy.close();
      }
    }, 60_000);
  }
});

describe('a server that ignores limit and answers its whole log, past what the runner parses', () => {
  it('is a violation of limit-honoured, judged by the records counted', async () => {
    const proxy = await startBreakingProxy(fake.url, {
      request: (r) => {
        if (r.method === 'GET' && r.url.pathname === '/node/api/event-log') r.url.searchParams.delete('limit');
        return r;
      },
    });
    try {
      const { code, stdout } = await check({ baseUrl: proxy.url, login: ADMIN.login, password: ADMIN.password, reporter: 'json', only: ['event-log'], seed: 4 });
      const report = JSON.parse(stdout) as Report;
      const limit = report.outcomes.find((o) => o.operationId === 'getEventLog' && o.check === 'limit-honoured');
      expect(limit?.failures[0]).toMatchObject({ verdict: 'violation', message: expect.stringMatching(/^limit=\d+ returned at least \d+ records/) as unknown });
      // The checks that need the records could not judge them: inconclusive, not ok.
      const sort = report.outcomes.find((o) => o.operationId === 'getEventLog' && o.check === 'sort-order');
      expect(sort?.inconclusive).toMatch(/the body was not judged: the body holds more than \d+ values/);
      expect(code).toBe(1);
    } finally {
      await proxy.close();
    }
  }, 60_000);
});
