// A server that tries to choose which words the reports hide: it answers an operation that issues
// no credential with an `authenticationToken` field (a check's name, and a word of its own that its
// error messages use), and sets its session cookie to `violation(s)`, a word of the verdict line.
// Neither becomes a mask: the runner's lines and the server's messages stay whole. The credentials
// it does issue (a token createAuthToken answers, the csrf cookie), echoed in every encoding, are
// still masked in every report. The user record's token, which the document marks, is a check's
// name, and a cookie the runner keeps is too short: neither is a mask either, and every report
// says how many values the server chose were not, and why, without showing them.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostileServer, json, type HostileServer } from './hostile-server.js';
import { REPORT_FORMATS, runTexts } from './report-texts.js';
import { revealer } from './revealed.js';

/** The session cookie's value: a word of the verdict line and of every group's progress line. */
const COOKIE_WORD = 'violation(s)';
/** An undocumented `authenticationToken` of the event log's answers: a check's name. */
const CHECK_WORD = 'status-documented';
/** The same, in the error answers: a word of the server's own messages, no word of the runner's. */
const MESSAGE_WORD = 'quota-exceeded-7';
/** The token the user record shows (a value the document marks `x-secret`): a check's name. */
const RECORD_WORD = 'no-sensitive-data';
/** A cookie the runner keeps and sends back, too short to be told from ordinary text. */
const SHORT = 'tz-utc1';
const TOKEN = 'tok-3b9d2e71-issued';
const CSRF = 'csrf-5a0c7e19-issued';
const revealed = revealer([TOKEN, CSRF]);

const CASES = `
createAuthToken:
  - name: issued-token
    steps:
      - name: create a token
        operationId: createAuthToken
        as: admin
        path: { id: '5867948233835d9661c56dc8' }
        expect: { status: 200 }
      - name: read the user
        operationId: getCurrentUser
        as: admin
        expect: { status: 200 }
`;

const b64 = (text: string): string => Buffer.from(text).toString('base64');
const hex = (text: string): string => Buffer.from(text).toString('hex');

let server: HostileServer;
let casesDir: string;
let issued = false;
beforeAll(async () => {
  casesDir = mkdtempSync(join(tmpdir(), 'cases-'));
  writeFileSync(join(casesDir, 'issued.yaml'), CASES);
  server = await hostileServer((req, res) => {
    const url = req.url ?? '';
    if (req.method === 'POST' && url.startsWith('/node/api/users/session')) {
      const cookies = [`sid=${COOKIE_WORD}; Path=/; HttpOnly`, `csrf=${CSRF}; Path=/`, `tz=${SHORT}; Path=/`];
      json(res, 200, '8a1f5e2c-0b4d-4e6a-9c3f-7d2e1b0a9f84', { 'set-cookie': cookies } as unknown as Record<string, string>);
      return;
    }
    if (req.method === 'POST' && url.includes('/auth-token')) {
      issued = true;
      json(res, 200, TOKEN);
      return;
    }
    if (req.method === 'GET' && url.startsWith('/node/api/users/current')) {
      json(res, 200, { id: '5867948233835d9661c56dc8', login: 'admin', permissions: [], authenticationToken: RECORD_WORD });
      return;
    }
    const cookie = req.headers.cookie ?? '';
    // The token once issued, and the cookies the runner sends back, echoed raw and encoded.
    const leaked = issued ? `${TOKEN} ${b64(`t=${TOKEN}`)} ${hex(TOKEN)} ${encodeURIComponent(`[${TOKEN}]`)}` : '';
    const echo = `${cookie} ${b64(`Cookie: ${cookie}`)} ${hex(cookie)} ${leaked}`;
    const token = url.startsWith('/node/api/event-log') ? CHECK_WORD : MESSAGE_WORD;
    json(res, 500, { status: 500, code: 'ECHO', message: `${MESSAGE_WORD}: you sent ${echo}`, authenticationToken: token });
  });
});
afterAll(() => server.close());

/** The run's note on the values not used as masks, from its start to the end of its sentence. */
function refusedNote(text: string): string {
  const note = /\d+ secret value\(s\) the server chose were not used as masks[^.]*\./.exec(text)?.[0] ?? '';
  expect(note).toContain('(too short: 1; a word the runner');
  expect(note).toMatch(/s own text holds: 2\)\.$/);
  expect(note.startsWith('3 ')).toBe(true);
  return note;
}
/** The values the server chose that are no masks: none is in the note, in any encoding. */
const notMasks = revealer([COOKIE_WORD, RECORD_WORD, SHORT]);

describe('the runner against a server that chooses credentials named after what reports say', () => {
  const flags = () => ({ baseUrl: server.url, cases: casesDir, quiet: false, seed: 13 });

  it.each(REPORT_FORMATS)('the %s report keeps the runner words and server messages whole, reveals no issued credential, and says how many values were not masks and why', async (reporter) => {
    const run = await runTexts(flags(), reporter);
    expect(run.code).toBe(1);
    // The case ran: the token was issued and echoed in the findings.
    expect(run.report).toContain('issued-token');
    expect(issued).toBe(true);
    for (const word of [CHECK_WORD, MESSAGE_WORD]) expect(run.report).toContain(word);
    // The progress lines, and the console summary's verdict line (all but the JSON report have one).
    expect(run.stderr).toMatch(/FAIL +authentication +\d+ requests, \d+ violation\(s\)/);
    if (reporter !== 'json') expect(run.stdout).toMatch(/FAILED: \d+ violation\(s\)/);
    for (const text of run.all) expect(revealed(text)).toEqual([]);
    const note = refusedNote(reporter === 'json' ? `${(JSON.parse(run.report) as { runNotes?: string[] }).runNotes?.join('\n') ?? ''}.` : run.report);
    expect(notMasks(note)).toEqual([]);
  }, 60_000);
});
