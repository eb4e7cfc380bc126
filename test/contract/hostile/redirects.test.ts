// A server that redirects every request (to another host, or to itself for ever): the runner
// follows none, so no credential reaches another origin and no loop starts; each 3xx is an
// undocumented status, a finding, and the run ends with a verdict (with a note of the run that
// every answer was a redirect: redirect-note.test.ts).
import { afterEach, describe, expect, it } from 'vitest';
import { check, hostileServer, json, type HostileServer } from './hostile-server.js';

const servers: HostileServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('the runner against redirects', () => {
  it('sends nothing to the host a redirect names', async () => {
    const other = await hostileServer((_req, res) => json(res, 200, { id: '5867948233835d9661c56dc8', login: 'admin' }));
    const redirecting = await hostileServer((req, res) => {
      res.writeHead(307, { location: `${other.url}${req.url ?? '/'}` });
      res.end();
    });
    servers.push(other, redirecting);
    const { code, stdout } = await check({ baseUrl: redirecting.url, reporter: 'json', seed: 1 });
    expect(other.requests()).toBe(0);
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as { outcomes: { check: string; failures: { message: string }[] }[] };
    expect(report.outcomes.find((o) => o.check === 'status-documented')?.failures[0]?.message).toMatch(/^answered 307/);
  }, 60_000);

  it('a redirect to itself is answered once per request, not followed round', async () => {
    const looping = await hostileServer((req, res) => {
      res.writeHead(302, { location: req.url ?? '/' });
      res.end();
    });
    servers.push(looping);
    const { code, stdout } = await check({ baseUrl: looping.url, reporter: 'json', seed: 1 });
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as { requests: number; runNotes?: string[] };
    expect(looping.requests()).toBe(report.requests);
    expect(report.runNotes).toEqual([expect.stringMatching(/^every answer was a redirect \(302\): /)]);
  }, 60_000);
});
