// A server that differs from the fake only where the spec is silent (its own error shape, text
// error bodies, 422 for 400, 200 for 204, a text/plain token): notes only, the token flow runs,
// nothing is inconclusive, so the run passes; --strict makes the notes fail it. Its report reads
// in a minute: each cause once with its count, every finding with --verbose and in JSON and JUnit.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleReporter } from '../../../src/contract/reporters/console.js';
import { causesOf } from '../../../src/contract/reporters/format.js';
import { htmlReporter } from '../../../src/contract/reporters/html.js';
import { jsonReporter, type Reporter, type Write } from '../../../src/contract/reporters/reporter.js';
import { junitReporter } from '../../../src/contract/reporters/junit.js';
import { markdownReporter } from '../../../src/contract/reporters/markdown.js';
import { runContract } from '../../../src/contract/run/run-contract.js';
import { statusOf, type RunResult } from '../../../src/contract/run/results.js';
import { startBreakingProxy, type Breakage, type RunningProxy } from '../broken/breaking-proxy.js';
import { ADMIN, listeningFake, VIEWER, type ListeningFake } from '../helpers/fake.js';

const gapsOnly: Breakage = {
  response: (request, response) => {
    if (request.method === 'POST' && request.url.pathname.endsWith('/auth-token') && response.status === 200) {
      return { ...response, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: JSON.parse(response.body) as string };
    }
    if (response.status === 204) return { status: 200, headers: { 'content-type': 'application/json' }, body: '{}' };
    if (response.status < 400) return response;
    const status = response.status === 400 ? 422 : response.status;
    // Reads get text error bodies; writes get JSON errors of another shape.
    if (request.method === 'GET') return { status, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: `Error ${status}` };
    return { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: { code: status, reason: 'refused' } }) };
  },
};

let fake: ListeningFake;
let proxy: RunningProxy;
let result: RunResult;

beforeAll(async () => {
  fake = await listeningFake();
  proxy = await startBreakingProxy(fake.url, gapsOnly);
  result = await runContract({ baseUrl: proxy.url, admin: ADMIN, low: VIEWER, seed: 7 });
});
afterAll(async () => {
  await proxy.close();
  await fake.close();
});

const summary = (r: RunResult) => r.outcomes.filter((o) => statusOf(o) !== 'passed').map((o) => `${o.operationId} ${o.check} ${statusOf(o)} ${o.failures[0]?.message ?? o.skipped ?? o.inconclusive ?? ''}`);

async function report(make: (write: Write) => Reporter): Promise<string> {
  let out = '';
  await make((t) => (out += t)).finish(result);
  return out;
}

describe('a server with only gap differences', () => {
  it('passes with notes, runs the token flow, and leaves nothing inconclusive', () => {
    expect(result.violations, JSON.stringify(summary(result), null, 1)).toBe(0);
    expect(result.inconclusive, JSON.stringify(summary(result), null, 1)).toBe(0);
    expect(result.notes).toBeGreaterThan(0);
    expect(result.exitCode).toBe(0);
    // Every step of the token flow ran; its revocation's 200 for 204 is a note.
    const tokenFlow = result.outcomes.find((o) => o.check === 'case/token-flow');
    expect(tokenFlow?.exchanges).toBe(8);
    expect(tokenFlow?.failures.map((f) => f.message)).toEqual(['step "revoke the token" got 200']);
    const noted = new Set(result.outcomes.filter((o) => statusOf(o) === 'noted').map((o) => o.check));
    // The text token and text error bodies (content-type), the error shape (response-schema), 422 and 200 (status-documented).
    expect([...noted]).toEqual(expect.arrayContaining(['content-type', 'response-schema', 'status-documented']));
    for (const f of result.outcomes.flatMap((o) => o.failures)) expect(f.citation.source, `${f.check}: ${f.message}`).toBe('gap-fill');
  });

  it('fails with --strict', async () => {
    fake.app.fake.state.reset();
    const strict = await runContract({ baseUrl: proxy.url, admin: ADMIN, low: VIEWER, seed: 7, strict: true });
    expect(strict).toMatchObject({ violations: 0, inconclusive: 0, exitCode: 1 });
  });
});

describe('the report of a server with only gap differences', () => {
  it('groups the findings by cause: the same check finding the same kind of difference, on any operation', () => {
    const causes = causesOf(result.outcomes.flatMap((o) => o.failures));
    const undocumented = causes.filter((c) => c.check === 'status-documented').map((c) => [c.findings[0]!.actual.status, c.operations.length > 1]);
    expect(undocumented).toEqual(expect.arrayContaining([[422, true], [200, true]]));
    expect(causes.length).toBeLessThan(result.notes / 5);
  });

  it('prints at most 60 lines on the console, each cause once with its count', async () => {
    const out = await report((write) => consoleReporter(write));
    expect(out.split('\n').length, out).toBeLessThanOrEqual(60);
    const causes = causesOf(result.outcomes.flatMap((o) => o.failures));
    const heads = out.split('\n').filter((line) => line.startsWith('NOTE '));
    expect(heads).toHaveLength(causes.length);
    for (const c of causes.filter((each) => each.findings.length > 1)) {
      const where = c.operations.map((o) => `${o.operationId} ×${o.count}`).join(', ');
      expect(heads.filter((h) => h === `NOTE ${c.check}: ${c.title} (${c.findings.length} notes on ${where}), the first:`)).toHaveLength(1);
    }
    expect(out).toContain(`Findings: ${result.notes} notes of ${causes.length} causes`);
  });

  it('lists every finding with --verbose, with long bodies in curl lines shortened to their head and size', async () => {
    const out = await report((write) => consoleReporter(write, write, { verbose: true }));
    expect(out.split('\n').filter((line) => line.startsWith('NOTE '))).toHaveLength(result.notes);
    expect(out).toMatch(/^getEventLog +pages-agree +ok/m);
    expect(out).toMatch(/ --data-raw '\{"text":"x{100,}…' \(body of [\d,]+ bytes, shortened\)$/m);
    const requests = out.split('\n').filter((line) => line.startsWith('  request:  curl'));
    expect(Math.max(...requests.map((line) => line.length))).toBeLessThan(600);
  });

  it('groups the same way in Markdown and HTML, every finding folded under its cause', async () => {
    const causes = causesOf(result.outcomes.flatMap((o) => o.failures));
    const md = await report(markdownReporter);
    expect(md.match(/^<details><summary><b>NOTE<\/b>/gm)).toHaveLength(causes.length);
    expect(md.match(/^\| [a-zA-Z]+ \| .* \| curl /gm)).toHaveLength(causes.filter((c) => c.findings.length > 1).reduce((n, c) => n + c.findings.length, 0));
    const html = await report(htmlReporter);
    expect(html.match(/<details class="note">/g)).toHaveLength(causes.length);
    expect(html.match(/<tr><td>[a-zA-Z]+<\/td><td>/g)).toHaveLength(causes.filter((c) => c.findings.length > 1).reduce((n, c) => n + c.findings.length, 0));
  });

  it('keeps every finding in JSON and JUnit, with whole curl lines', async () => {
    const json = JSON.parse(await report(jsonReporter)) as { outcomes: { failures: { curl: string }[] }[] };
    const findings = json.outcomes.flatMap((o) => o.failures);
    expect(findings).toHaveLength(result.notes);
    expect(findings.some((f) => f.curl.length > 2_000)).toBe(true);
    const xml = await report(junitReporter);
    expect(xml.match(/NOTE \w+ · /g)).toHaveLength(result.notes);
  });
});
