// The API tokens the no-sensitive-data check knows are the values the document marks `x-secret`
// in the answer documented for the operation and status answered. A server shows a token in the
// caller's record, then echoes it in the event log's error answer: that is an API token in a body
// (a violation). The same field in a getCurrentUser answer of a status the document does not
// describe (203: no schema, no mark) is only a field of that name: its value is no token, and
// its echo is no finding.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { answersLogInOrOut, check, hostileServer, type HostileServer, json } from './hostile-server.js';

const ADMIN_ID = '5867948233835d9661c56dc8';
const TOKEN = '4d0c8f3a-7e21-4b6d-9a5e-2c1f0b8e7d63';

const CASES = `
getCurrentUser:
  - name: token-in-record
    steps:
      - name: read the user
        operationId: getCurrentUser
        as: admin
        expect: { status: [200, 203] }
      - name: read the log
        operationId: getEventLog
        as: admin
        expect: { status: 400 }
`;

interface Report {
  outcomes: { operationId: string; check: string; failures: { verdict: string; message: string }[] }[];
}

let casesDir: string;
beforeAll(() => {
  casesDir = mkdtempSync(join(tmpdir(), 'cases-'));
  writeFileSync(join(casesDir, 'token.yaml'), CASES);
});

/** A server whose getCurrentUser answers `status` with a record showing TOKEN, and whose event log echoes it. */
async function server(status: number): Promise<HostileServer> {
  return hostileServer((req, res) => {
    const url = req.url ?? '';
    if (answersLogInOrOut(req, res)) return;
    if (url.startsWith('/node/api/users/current')) {
      json(res, status, { id: ADMIN_ID, login: 'admin', permissions: [], authenticationToken: TOKEN });
      return;
    }
    json(res, 400, { status: 400, code: 'INVALID_PARAMETER', message: `no log for ${TOKEN}` });
  });
}

async function sensitiveFindings(status: number): Promise<string[]> {
  const hostile = await server(status);
  try {
    const { stdout } = await check({ baseUrl: hostile.url, cases: casesDir, only: ['cases'], reporter: 'json', seed: 17 });
    const report = JSON.parse(stdout) as Report;
    return report.outcomes.filter((o) => o.check === 'no-sensitive-data').flatMap((o) => o.failures.map((f) => `${o.operationId} ${f.verdict} ${f.message}`));
  } finally {
    await hostile.close();
  }
}

describe('the API tokens no-sensitive-data knows: the values the document marks x-secret', () => {
  it('a token the document marks in the caller record is a violation when another answer echoes it', async () => {
    const found = await sensitiveFindings(200);
    // The record shows the caller's own token: no finding there.
    expect(found).toEqual([`getEventLog violation /message: the API token of user ${ADMIN_ID} *** (47 characters) where the document marks no credential`]);
  }, 60_000);

  it('the same field in an answer of a status the document does not describe is no token', async () => {
    expect(await sensitiveFindings(203)).toEqual([]);
  }, 60_000);
});
