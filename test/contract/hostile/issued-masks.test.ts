// A server that tries to choose which words the reports hide: it answers an operation that issues
// no credential with an `authenticationToken` field (a check's name, and a word of its own that its
// error messages use), and sets its session cookie to `violation(s)`, a word of the verdict line.
// Neither becomes a mask: the runner's lines and the server's messages stay whole. The credentials
// it does issue (a token createAuthToken answers, the csrf cookie), echoed in every encoding, are
// still masked in every report.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { check, hostileServer, json, type HostileServer } from './hostile-server.js';
import { revealer } from './revealed.js';

/** The session cookie's value: a word of the verdict line and of every group's progress line. */
const COOKIE_WORD = 'violation(s)';
/** An undocumented `authenticationToken` of the event log's answers: a check's name. */
const CHECK_WORD = 'status-documented';
/** The same, in the error answers: a word of the server's own messages, no word of the runner's. */
const MESSAGE_WORD = 'quota-exceeded-7';
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
      const cookies = [`sid=${COOKIE_WORD}; Path=/; HttpOnly`, `csrf=${CSRF}; Path=/`];
      json(res, 200, '8a1f5e2c-0b4d-4e6a-9c3f-7d2e1b0a9f84', { 'set-cookie': cookies } as unknown as Record<string, string>);
      return;
    }
    if (req.method === 'POST' && url.includes('/auth-token')) {
      issued = true;
      json(res, 200, TOKEN);
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

describe('the runner against a server that chooses credentials named after what reports say', () => {
  const flags = () => ({ baseUrl: server.url, cases: casesDir, quiet: false, seed: 13 });

  it.each(['console', 'json'] as const)('the %s report keeps the runner words and server messages whole, and reveals no issued credential', async (reporter) => {
    const { code, stdout, stderr } = await check({ ...flags(), reporter });
    expect(code).toBe(1);
    // The case ran: the token was issued and echoed in the findings.
    expect(stdout).toContain('issued-token');
    expect(issued).toBe(true);
    for (const word of [CHECK_WORD, MESSAGE_WORD]) expect(stdout).toContain(word);
    // The progress lines, and the console report's verdict line.
    expect(stderr).toMatch(/FAIL +authentication +\d+ requests, \d+ violation\(s\)/);
    if (reporter === 'console') expect(stdout).toMatch(/FAILED: \d+ violation\(s\)/);
    expect(revealed(stdout)).toEqual([]);
    expect(revealed(stderr)).toEqual([]);
  }, 60_000);

  it.each(['junit', 'html', 'markdown'] as const)('the %s file keeps the runner words whole, and reveals no issued credential', async (reporter) => {
    const output = join(mkdtempSync(join(tmpdir(), 'report-')), 'report');
    const { code, stdout, stderr } = await check({ ...flags(), reporter, output });
    expect(code).toBe(1);
    const file = readFileSync(output, 'utf8');
    for (const word of [CHECK_WORD, MESSAGE_WORD]) expect(file).toContain(word);
    expect(stdout).toMatch(/FAILED: \d+ violation\(s\)/);
    for (const text of [file, stdout, stderr]) expect(revealed(text)).toEqual([]);
  }, 60_000);
});
