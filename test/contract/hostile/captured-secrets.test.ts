// A custom case captures credentials from an answer (a token header, a session field of the body,
// a header of no telling name that a later step sends as `Authorization: Bearer`) and sends them
// on; the server answers with them in its body and its headers. None reaches a report, the
// findings of the step that captured them included.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hostileServer, json, type HostileServer } from './hostile-server.js';
import { REPORT_FORMATS, runTexts } from './report-texts.js';
import { revealer } from './revealed.js';

const HEADER_TOKEN = 'hdr-7f3a91c2-token';
const BODY_TOKEN = 'deep-51be0d77-token';
const BEARER = 'ref-0c9e44aa-bearer';
const TRACE = 'trace-visible-4242';
const revealed = revealer([HEADER_TOKEN, BODY_TOKEN, BEARER, TRACE]);

const CASES = `
createSession:
  - name: captured-credentials
    steps:
      - name: log in
        operationId: createSession
        as: admin
        auth: none
        body: { login: '{{admin.login}}', password: '{{admin.password}}' }
        expect: { status: 200 }
        capture:
          header: { header: x-session-token }
          deep: { body: /session/token }
          ref: { header: x-request-ref }
          trace: { header: x-trace-id }
      - name: use them
        operationId: getCurrentUser
        as: anonymous
        auth: none
        headers: { x-api-key: '{{header}}', x-echo: '{{deep}}', authorization: 'Bearer {{ref}}', x-trace: '{{trace}}' }
        expect: { status: 200 }
`;

let server: HostileServer;
let casesDir: string;
beforeAll(async () => {
  casesDir = mkdtempSync(join(tmpdir(), 'cases-'));
  writeFileSync(join(casesDir, 'captured.yaml'), CASES);
  server = await hostileServer((req, res) => {
    const echo = { status: 500, code: 'ECHO', message: `you sent ${JSON.stringify(req.headers)}` };
    if (req.method === 'POST' && req.url?.startsWith('/node/api/users/session')) {
      // The credentials in headers and in the body, which is not the session id the document describes (a finding on this step).
      json(res, 200, { session: { token: BODY_TOKEN }, echo: `${HEADER_TOKEN} ${BEARER}` }, { 'x-session-token': HEADER_TOKEN, 'x-request-ref': BEARER, 'x-trace-id': TRACE });
      return;
    }
    if (req.url?.startsWith('/node/api/users/current') && req.headers['x-trace'] === undefined) {
      json(res, 200, { id: '5867948233835d9661c56dc8', login: 'admin', permissions: [] });
      return;
    }
    json(res, 500, echo, { 'x-echo': JSON.stringify(req.headers) });
  });
});
afterAll(() => server.close());

describe('the runner against a server that echoes the credentials a custom case captured', () => {
  const flags = () => ({ baseUrl: server.url, cases: casesDir, quiet: false, seed: 11 });

  it.each(REPORT_FORMATS)('the %s report, stdout and stderr reveal none of them', async (reporter) => {
    const run = await runTexts(flags(), reporter);
    expect(run.code).toBe(1);
    // The case ran to its second step, whose request and the echo of it are in the report.
    expect(run.report).toContain('captured-credentials');
    for (const text of run.all) expect(revealed(text)).toEqual([]);
  }, 60_000);
});
