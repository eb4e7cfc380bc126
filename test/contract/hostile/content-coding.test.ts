// The runner asks for bodies as they are (Accept-Encoding: identity), so a server that compresses
// only what the client accepts (RFC 9110 12.5.3) is judged on its JSON; a server that codes its
// answers anyway gets a finding that names the coding, not "the body is not valid JSON".
import type { IncomingMessage } from 'node:http';
import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { check, hostileServer } from './hostile-server.js';

const USER = { id: '5867948233835d9661c56dc8', login: 'admin', permissions: ['manage-users', 'manage-event-log', 'manage-configuration'] };

interface Report {
  outcomes: { operationId: string; check: string; failures: { verdict: string; message: string }[] }[];
}

/** Whether the request lets the server use gzip: no Accept-Encoding at all, or one naming gzip or `*`. */
const acceptsGzip = (req: IncomingMessage): boolean => {
  const accepted = req.headers['accept-encoding'];
  return accepted === undefined || /\b(gzip|\*)\b/.test(accepted);
};

/** The content-type findings of an event-log run against a server that gzips its JSON when `compress` says so; and the Accept-Encoding values it saw. */
async function run(compress: (req: IncomingMessage) => boolean): Promise<{ findings: string[]; accepted: Set<string | undefined> }> {
  const accepted = new Set<string | undefined>();
  const hostile = await hostileServer((req, res) => {
    accepted.add(req.headers['accept-encoding']);
    const text = JSON.stringify((req.url ?? '').includes('/users/current') ? USER : []);
    const coded = compress(req);
    const body = coded ? gzipSync(text) : Buffer.from(text);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length), ...(coded ? { 'content-encoding': 'gzip', vary: 'Accept-Encoding' } : {}) });
    res.end(body);
  });
  try {
    const { stdout, stderr } = await check({ baseUrl: hostile.url, only: ['event-log'], reporter: 'json', seed: 3 });
    if (!stdout) throw new Error(stderr);
    const report = JSON.parse(stdout) as Report;
    const findings = report.outcomes.filter((o) => o.check === 'content-type').flatMap((o) => o.failures.map((f) => `${o.operationId} ${f.verdict} ${f.message}`));
    return { findings, accepted };
  } finally {
    await hostile.close();
  }
}

describe('content codings of answers', () => {
  it('asks for identity, so a server that compresses only what the client accepts sends JSON that is judged as such', async () => {
    const { findings, accepted } = await run(acceptsGzip);
    expect([...accepted]).toEqual(['identity']);
    expect(findings).toEqual([]);
  }, 60_000);

  it('names the coding when a server gzips its answers anyway', async () => {
    const { findings } = await run(() => true);
    expect(findings.length).toBeGreaterThan(0);
    expect(new Set(findings.map((f) => f.replace(/^\S+ /, '')))).toEqual(new Set(['violation the body is content-coded (Content-Encoding: gzip), not JSON text']));
  }, 60_000);
});
