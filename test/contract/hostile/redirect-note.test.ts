// A staging server behind a log-in proxy answers every request with a redirect to the log-in page.
// The runner follows none, and each operation keeps its `status-documented` violation; every
// report also says once, in a note of the run, that the API was never reached, naming the statuses
// (never where the redirects point: a Location's query carries the proxy's state and tokens). A
// server that redirects only some requests gets no such note.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostileServer, json, type HostileServer } from './hostile-server.js';
import { REPORT_FORMATS, runTexts } from './report-texts.js';

const LOGIN = 'https://sso.example/login';
/** In the Location's query and fragment: the proxy's state, which no report may show. */
const TOKEN = 'sso-state-7c41e9a2b08d';
const FRAGMENT = 'frag-d93be0715a';
const NOTE = `every answer was a redirect (302): the runner follows none, so the API was not reached; --base-url may be behind a log-in page or lack a path prefix`;
/** Any form of the note. */
const ANY_NOTE = /every answer was a redirect/;

let sso: HostileServer;
let partly: HostileServer;
beforeAll(async () => {
  sso = await hostileServer((req, res) => {
    res.writeHead(302, { location: `${LOGIN}?state=${TOKEN}&return=${encodeURIComponent(req.url ?? '/')}#${FRAGMENT}` });
    res.end();
  });
  // The current user is answered; every other request is redirected.
  partly = await hostileServer((req, res) => {
    if ((req.url ?? '').startsWith('/node/api/users/current')) {
      json(res, 200, { id: '5867948233835d9661c56dc8', login: 'admin', permissions: [] });
      return;
    }
    res.writeHead(302, { location: `${LOGIN}?state=${TOKEN}` });
    res.end();
  });
});
afterAll(async () => {
  await Promise.all([sso.close(), partly.close()]);
});

const count = (text: string, part: string): number => text.split(part).length - 1;

describe('the runner against a server whose every answer is a redirect', () => {
  it.each(REPORT_FORMATS)('the %s report says once, in a note of the run, that the API was not reached, naming the statuses only', async (reporter) => {
    const run = await runTexts({ baseUrl: sso.url, seed: 5 }, reporter);
    expect(run.code).toBe(1);
    for (const text of run.all) {
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain(FRAGMENT);
    }
    if (reporter === 'junit') {
      // A note of the run is a property of each suite, as every note of the run is.
      const suites = count(run.report, '<testsuite ');
      expect(suites).toBeGreaterThan(0);
      expect(count(run.report, `name="note" value="${NOTE}."`)).toBe(count(run.report, 'name="baseUrl"'));
    } else if (reporter === 'json') {
      const report = JSON.parse(run.report) as { runNotes?: string[]; violations: number; outcomes: { check: string; failures: { message: string; verdict: string }[] }[] };
      expect(report.runNotes?.filter((note) => ANY_NOTE.test(note))).toEqual([NOTE]);
      // The verdicts stand: each redirect is an undocumented status, and no finding is the note.
      const statuses = report.outcomes.filter((o) => o.check === 'status-documented').flatMap((o) => o.failures);
      expect(statuses.filter((f) => f.verdict === 'violation').length).toBeGreaterThan(0);
      for (const failure of statuses) expect(failure.message).toMatch(/^answered 302, which the document does not list/);
      expect(report.violations).toBeGreaterThan(0);
      for (const o of report.outcomes) for (const failure of o.failures) expect(failure.message).not.toMatch(ANY_NOTE);
    } else {
      expect(count(run.report, NOTE)).toBe(1);
    }
  }, 60_000);

  it.each(['console', 'json'] as const)('the %s report of a server that redirects only some requests has no such note', async (reporter) => {
    const run = await runTexts({ baseUrl: partly.url, seed: 5 }, reporter);
    expect(run.code).toBe(1);
    // The runner did meet redirects, as status findings.
    expect(run.report).toMatch(/answered 302/);
    for (const text of run.all) expect(text).not.toMatch(ANY_NOTE);
  }, 60_000);
});
