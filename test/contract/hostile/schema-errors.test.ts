// A server whose event log is a megabyte of records each wrong in several fields: Ajv reports
// about 15 errors a record, tens of thousands in all. The runner judges the first few hundred,
// says how many more there were, and the verdict stays a violation.
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_SCHEMA_ERRORS } from '../../../src/contract/checks/response-checks.js';
import { loadSpec } from '../../../src/spec/index.js';
import { check, hostileServer, json, type HostileServer } from './hostile-server.js';

let server: HostileServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

// Within the bounds the runner parses (about 12,800 values): two values a record, padded with
// whitespace (which costs no value) to a megabyte.
const RECORDS = 6_000;
const body = `[${Array.from({ length: RECORDS }, () => `{"type":1}${' '.repeat(160)}`).join(',')}]`;

interface Report {
  outcomes: { operationId: string; check: string; inconclusive?: string; failures: { verdict: string; message: string }[] }[];
}

async function serveEventLog(eventLog: string): Promise<HostileServer> {
  return hostileServer((req, res) => {
    if ((req.url ?? '').startsWith('/node/api/event-log?') || req.url === '/node/api/event-log') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(eventLog);
    } else json(res, 404, { status: 404, code: 'NOT_FOUND', message: 'nothing here' });
  });
}

describe('the runner against a server of countless schema errors', () => {
  it('judges a bounded number of them, counts the rest, and still finds the violation', async () => {
    expect(body.length).toBeGreaterThan(1_000_000);
    server = await serveEventLog(body);
    const { code, stdout, stderr } = await check({ baseUrl: server.url, reporter: 'json', budget: 1 });
    expect(code, stderr).toBe(1);
    const report = JSON.parse(stdout) as Report;
    const schema = report.outcomes.filter((o) => o.operationId === 'getEventLog' && o.check === 'response-schema');
    const failures = schema.flatMap((o) => o.failures);
    expect(failures.length).toBeGreaterThan(0);
    expect(failures.some((f) => f.verdict === 'violation')).toBe(true);
    for (const f of failures) {
      // What was judged is capped, and the rest is counted rather than passed over.
      const judged = [...f.message.matchAll(/\((\d+) times\)/g)].map((m) => Number(m[1]));
      for (const n of judged) expect(n).toBeLessThanOrEqual(MAX_SCHEMA_ERRORS);
      const more = /(\d+) more schema error\(s\) not judged/.exec(f.message);
      expect(more, f.message).not.toBeNull();
      expect(Number(more?.[1])).toBeGreaterThan(1000);
      expect(f.message).toMatch(/the \d+ item\(s\) after the first \d+ not checked/);
    }
    // Findings stay a readable size whatever the answer, in every reporter.
    expect(stdout.length).toBeLessThan(2 * 1024 * 1024);
    for (const reporter of ['console', 'junit', 'html', 'markdown'] as const) {
      const other = await check({ baseUrl: server.url, reporter, budget: 1 });
      expect(other.code, other.stderr).toBe(1);
      expect(other.stdout.length, reporter).toBeGreaterThan(0);
      expect(other.stdout.length, reporter).toBeLessThan(2 * 1024 * 1024);
    }
  }, 120_000);

  it('calls an answer inconclusive, never ok, when records past the ones checked were left unchecked', async () => {
    const spec = await loadSpec();
    const documented = spec.document.paths?.['/node/api/event-log']?.get?.responses?.['200'] as { content: Record<string, { example: unknown[] }> };
    const record = documented.content['application/json']?.example[0];
    // More records than the runner validates (500 at the default --max-records), each as the document shows one.
    server = await serveEventLog(JSON.stringify(Array.from({ length: 550 }, () => record)));
    const { stdout } = await check({ baseUrl: server.url, reporter: 'json' });
    const report = JSON.parse(stdout) as Report;
    const schema = report.outcomes.filter((o) => o.operationId === 'getEventLog' && o.check === 'response-schema');
    expect(schema.flatMap((o) => o.failures)).toEqual([]);
    expect(schema).toHaveLength(1);
    expect(schema[0]?.inconclusive).toMatch(/^the 50 item\(s\) after the first 500 not checked/);
  }, 120_000);
});
