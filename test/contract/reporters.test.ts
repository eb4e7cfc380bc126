import { describe, expect, it } from 'vitest';
import { apply } from '../../src/contract/checks/check.js';
import { limitHonoured } from '../../src/contract/checks/model-checks.js';
import { markdownReporter } from '../../src/contract/reporters/markdown.js';
import { consoleReporter } from '../../src/contract/reporters/console.js';
import { jsonReporter, maskedReporter } from '../../src/contract/reporters/reporter.js';
import { junitReporter } from '../../src/contract/reporters/junit.js';
import { createSecrets } from '../../src/shared/redaction/secret-values.js';
import type { Exchange } from '../../src/contract/types.js';
import { resultOf } from './helpers/result.js';
import { exchange, records } from './helpers/synthetic.js';

const secretToken = '32925106-8c56-41d1-8713-410f203e8ce0';
const withRequest = (e: Exchange, url: string, headers: Record<string, string> = {}): Exchange => ({ ...e, request: { method: 'GET', url, headers } });

async function sample(strict = false) {
  const tooMany = withRequest(exchange('getEventLog', { status: 200, body: records(4) }), 'http://127.0.0.1:4010/node/api/event-log?limit=2', {
    authorization: 'Basic YWRtaW46YWRtaW4tcGFzc3dvcmQ=',
  });
  const errorShape = withRequest(exchange('getEventLog', { status: 400, body: { error: 'bad' } }), `http://127.0.0.1:4010/node/api/event-log?limit=x&api-token=${secretToken}`);
  const user = withRequest(exchange('getCurrentUser', { status: 200, body: { id: '5867948233835d9661c56dc8', login: 'admin', permissions: [], authenticationToken: secretToken } }), 'http://127.0.0.1:4010/node/api/users/current');
  return resultOf(
    [
      { exchange: tooMany, checks: [apply(limitHonoured, { query: { limit: '2' } })] },
      { exchange: errorShape },
      { exchange: user },
    ],
    strict,
  );
}

describe('console reporter', () => {
  it('with verbose: the summary table, each failure with curl, expectation, citation and answer, and the seed', async () => {
    let out = '';
    const result = await sample();
    await consoleReporter((t) => (out += t), undefined, { verbose: true }).finish(result);
    expect(out).toMatch(/getEventLog\s+limit-honoured\s+FAIL\s+1\s+1\s+0/);
    expect(out).toMatch(/getLimitBlockLog\s+block-recorded\s+skip\s+0\s+0\s+0\s+rate limits are probed only/);
    expect(out).toContain('VIOLATION getEventLog · limit-honoured');
    expect(out).toContain('  expected: at most 2 records');
    expect(out).toContain('  cites:    spec 4.4: limit: maximum number of records to return.');
    expect(out).toContain("  request:  curl -sS -i 'http://127.0.0.1:4010/node/api/event-log?limit=2' -H 'authorization: Basic ***'");
    expect(out).toMatch(/ {2}got: {6}200 \[\{"_id"/);
    expect(out).toContain('NOTE getEventLog · response-schema');
    expect(out).toMatch(/createAuthToken\s+case\/token-flow\s+inconclusive\s+0\s+0\s+0\s+step "create a token" captured no "first"/);
    expect(out).toContain('FAILED: 1 violation(s), 1 note(s), 1 inconclusive in 3 requests to http://127.0.0.1:4010. Seed 4242 (replay with --seed 4242).');
    expect(out).not.toContain(secretToken);
    expect(out).not.toContain('YWRtaW46');
  });

  it('by default: the outcomes in a line, the coverage totals, what did not run, each cause of findings', async () => {
    let out = '';
    await consoleReporter((t) => (out += t)).finish(await sample());
    expect(out).toContain('Checks: 15 on 4 operations: 11 ok, 1 failed, 1 with notes, 1 inconclusive, 1 skipped (--verbose: the table of every operation and check).');
    expect(out).not.toMatch(/getEventLog\s+limit-honoured\s+FAIL/);
    expect(out).toContain('Not run:\n  skipped: rate limits are probed only with --probe-limits');
    expect(out).toContain('Findings: 1 violation and 1 note of 2 causes');
    expect(out).toContain('VIOLATION getEventLog · limit-honoured');
    expect(out).toMatch(/FAILED: 1 violation\(s\)/);
  });

  it('shortens a long body in a curl line after masking, so no part of a secret shows', async () => {
    const secret = 'Xs3cr3t-p4ssw0rd-that-is-long';
    // The secret straddles the cut (160 characters of the body): masked first, it shows as *** whole.
    const body = JSON.stringify({ text: `${'x'.repeat(141)}${secret}${'y'.repeat(400)}` });
    const patch = { ...exchange('getEventLog', { status: 200, body: records(4) }), request: { method: 'PATCH', url: 'http://127.0.0.1:4010/node/api/event-log/1/payload', headers: {}, body } };
    const result = await resultOf([{ exchange: patch, checks: [apply(limitHonoured, { query: { limit: '2' } })] }]);
    const secrets = createSecrets();
    secrets.add(secret);
    let out = '';
    await maskedReporter(consoleReporter((t) => (out += t)), secrets).finish(result);
    expect(out).toMatch(/--data-raw '\{"text":"x{141}\*\*\*y+…' \(body of [\d,]+ bytes, shortened\)/);
    expect(out).not.toContain(secret.slice(0, 6));
  });
});

describe('the coverage section, in every report', () => {
  it('console: totals, a block per operation (verbose), what did not run', async () => {
    let out = '';
    await consoleReporter((t) => (out += t), undefined, { verbose: true }).finish(await sample());
    expect(out).toMatch(/Coverage: 2 of 8 operations answered; 3 of 46 documented statuses seen \(6.5 %\); 3 of 7 spec sections covered\./);
    expect(out).toContain('  getEventLog: 2 requests\n    statuses    seen 200 400; not seen 401 403 429');
    expect(out).toContain('    query       filter (not sent) from (not sent) to (not sent) inverse (not sent) limit skip (not sent)');
    expect(out).toContain('Not run:\n  skipped: rate limits are probed only with --probe-limits (getLimitBlockLog block-recorded)\n  inconclusive: step "create a token" captured no "first"; the later steps did not run (createAuthToken case/token-flow)');
  });

  it('json: the coverage object', async () => {
    let out = '';
    await jsonReporter((t) => (out += t)).finish(await sample());
    const report = JSON.parse(out) as { coverage: { totals: { statuses: { covered: number; of: number } }; operations: { operationId: string }[] } };
    expect(report.coverage.totals.statuses).toMatchObject({ covered: 3, of: 46, percent: 6.5 });
    expect(report.coverage.operations).toHaveLength(8);
  });

  it('junit: a coverage suite with the totals as properties and a testcase per operation', async () => {
    let xml = '';
    await junitReporter((t) => (xml += t)).finish(await sample());
    expect(xml).toMatch(/<testsuite name="coverage"[^>]*>\s*<properties>\s*<property name="operations" value="2\/8"\/>\s*<property name="statuses" value="3\/46"\/>/);
    expect(xml).toMatch(/<testcase classname="monitoring-api-kit.coverage" name="getEventLog">\s*<system-out>\s*<!\[CDATA\[requests: 2\nstatuses seen: 200 400\nnot seen: 401 403 429/);
  });

  it('markdown: verdict, checks, coverage table, each cause of findings folded', async () => {
    let md = '';
    await markdownReporter((t) => (md += t)).finish(await sample());
    expect(md).toMatch(/^## Contract check: ❌ FAILED\n/);
    expect(md).toContain('| getEventLog | limit-honoured | ❌ FAIL | 1 | 1 | 0 |  |');
    expect(md).toContain('### Coverage');
    expect(md).toContain('| getEventLog | 2 | 200 400 | 401 403 429 |');
    expect(md).toContain('- skipped: rate limits are probed only with --probe-limits (getLimitBlockLog block-recorded)');
    expect(md).toMatch(/<details><summary><b>VIOLATION<\/b> getEventLog · limit-honoured: limit=2 returned 4 records<\/summary>/);
    expect(md).toContain("```\ncurl -sS -i 'http://127.0.0.1:4010/node/api/event-log?limit=2' -H 'authorization: Basic ***'\n```");
    expect(md).not.toContain(secretToken);
  });
});

describe('json reporter', () => {
  it('writes totals, seed and outcomes without exchanges', async () => {
    let out = '';
    await jsonReporter((t) => (out += t)).finish(await sample());
    const report = JSON.parse(out) as Record<string, unknown>;
    expect(report).toMatchObject({ seed: 4242, violations: 1, notes: 1, inconclusive: 1, exitCode: 1 });
    expect(report.exchanges).toBeUndefined();
    expect(out).not.toContain(secretToken);
    const outcomes = report.outcomes as { check: string; status: string }[];
    expect(outcomes.find((o) => o.check === 'limit-honoured')?.status).toBe('failed');
    expect(outcomes.find((o) => o.check === 'case/token-flow')).toMatchObject({ status: 'inconclusive', inconclusive: expect.stringContaining('captured no "first"') });
    expect(outcomes.find((o) => o.check === 'block-recorded')).toMatchObject({ status: 'skipped', skipped: expect.stringContaining('--probe-limits') });
  });
});

describe('junit reporter', () => {
  it('writes one testsuite per operationId and one testcase per check; violations fail, notes go to system-out, skips are skipped', async () => {
    let xml = '';
    await junitReporter((t) => (xml += t)).finish(await sample());
    const suites = [...xml.matchAll(/<testsuite name="([^"]+)"/g)].map((m) => m[1]);
    expect(suites).toEqual(['createAuthToken', 'getCurrentUser', 'getEventLog', 'getLimitBlockLog', 'coverage']);
    expect(xml).toMatch(/<property name="seed" value="4242"\/>/);
    expect(xml).toMatch(/<testcase classname="monitoring-api-kit.getEventLog" name="limit-honoured">\s*<failure message="1 finding\(s\): limit=2 returned 4 records" type="violation"\/>/);
    expect(xml).toMatch(/<testcase classname="monitoring-api-kit.getEventLog" name="response-schema">\s*<system-out>/);
    expect(xml).toMatch(/<testcase classname="monitoring-api-kit.getLimitBlockLog" name="block-recorded">\s*<skipped\/>\s*<system-out>\s*<!\[CDATA\[skipped: rate limits are probed only/);
    expect(xml).toMatch(/<testcase classname="monitoring-api-kit.createAuthToken" name="case\/token-flow">\s*<skipped\/>\s*<system-out>\s*<!\[CDATA\[inconclusive: step "create a token" captured no "first"/);
    expect(xml).not.toContain(secretToken);
  });

  it('makes notes failures under --strict', async () => {
    let xml = '';
    await junitReporter((t) => (xml += t)).finish(await sample(true));
    expect(xml).toMatch(/name="response-schema">\s*<failure message="[^"]*" type="note"\/>/);
    expect(xml).toMatch(/name="case\/token-flow">\s*<failure message="inconclusive: step &quot;create a token&quot; captured no &quot;first&quot;[^"]*" type="inconclusive"\/>/);
  });
});
