// The spec sets no time to answer in: a request the server leaves without an answer past the
// runner's own --timeout is inconclusive, never ok and never a violation. A connection the
// server destroys before answering is a violation: an HTTP request gets an answer.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBreakingProxy } from '../broken/breaking-proxy.js';
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
  outcomes: { operationId: string; check: string; status: string; inconclusive?: string; failures: { verdict: string; message: string }[] }[];
}

const TIMEOUT = 500;
const NAMED = /no answer within the runner's timeout of 500 ms \(--timeout\); the specification states no time limit/;

/** The block log group against the fake, its requests withheld as given; the other operations answer. */
async function run(withheld: 'hang' | 'reset', reporter: 'json' | 'console' | 'junit', strict = false) {
  const proxy = await startBreakingProxy(fake.url, { withhold: (r) => (r.url.pathname === '/node/api/limit-block-log' ? withheld : undefined) });
  try {
    return await check({ baseUrl: proxy.url, login: ADMIN.login, password: ADMIN.password, reporter, only: ['limit-block-log'], seed: 3, timeout: TIMEOUT, strict });
  } finally {
    await proxy.close();
  }
}

const transportOutcome = (stdout: string) => {
  const report = JSON.parse(stdout) as Report;
  return { report, outcome: report.outcomes.find((o) => o.operationId === 'getLimitBlockLog' && o.check === 'transport-error') };
};

describe('a server that never answers one operation', () => {
  it('is inconclusive, naming the runner\'s timeout: exit 0, 1 with --strict', async () => {
    const { code, stdout, stderr } = await run('hang', 'json');
    const { report, outcome } = transportOutcome(stdout);
    expect(outcome, stdout).toMatchObject({ status: 'inconclusive', failures: [] });
    expect(outcome?.inconclusive).toMatch(NAMED);
    // The checks that needed the answer say the same reason, in the same words.
    const others = report.outcomes.filter((o) => o.operationId === 'getLimitBlockLog' && o.check !== 'transport-error' && o.status === 'inconclusive');
    expect(others.length, stdout).toBeGreaterThan(0);
    expect(others.map((o) => o.inconclusive).filter((reason) => !NAMED.test(reason ?? ''))).toEqual([]);
    expect(report.violations).toBe(0);
    expect(code, stderr).toBe(0);
    expect((await run('hang', 'json', true)).code).toBe(1);
  }, 60_000);

  it('the console and JUnit reports say inconclusive with the reason, never ok or a failure', async () => {
    const text = await run('hang', 'console');
    const line = text.stdout.split('\n').find((l) => /^ {2}inconclusive: .*\bgetLimitBlockLog transport-error\b/.test(l));
    expect(line, text.stdout).toMatch(NAMED);
    expect(text.stdout).not.toMatch(/^VIOLATION /m);
    expect(text.stdout).toMatch(/^PASSED: 0 violation\(s\)/m);
    expect(text.code).toBe(0);

    const junit = await run('hang', 'junit');
    const testcase = /<testcase[^>]*name="transport-error"[^>]*>([\s\S]*?)<\/testcase>/.exec(junit.stdout.slice(junit.stdout.indexOf('name="getLimitBlockLog"')));
    expect(testcase?.[1], junit.stdout).toMatch(/<skipped\/>/);
    expect(testcase?.[1]).not.toMatch(/<failure/);
    expect(testcase?.[1]).toMatch(NAMED);
    expect(junit.code).toBe(0);
  }, 60_000);
});

describe('a server that destroys the connection before answering', () => {
  it('is a violation of transport-error: exit 1', async () => {
    const { code, stdout } = await run('reset', 'json');
    const { outcome } = transportOutcome(stdout);
    expect(outcome, stdout).toMatchObject({ status: 'failed', failures: [{ verdict: 'violation', message: expect.stringMatching(/^no answer: /) as unknown }] });
    expect(outcome?.failures[0]?.message).not.toMatch(/timed out/);
    expect(code).toBe(1);
  }, 60_000);
});
