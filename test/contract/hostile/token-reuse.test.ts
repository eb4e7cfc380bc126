// A token createAuthToken answers for one user that the run already knows as another user's is
// not a new token (spec 4.1): token-issued-new reports it as a violation naming both users by id,
// the token only masked. Here the administrator's record shows its token, and createAuthToken for
// the low-privilege user answers that same token, or a fresh one.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { answersLogInOrOut, hostileServer, json } from './hostile-server.js';
import { REPORT_FORMATS, runTexts } from './report-texts.js';
import { revealer } from './revealed.js';

const ADMIN_ID = '5867948233835d9661c56dc8';
const LOW_ID = '5867948233835d9661c56dc9';
const ADMIN_TOKEN = '4d0c8f3a-7e21-4b6d-9a5e-2c1f0b8e7d63';
const FRESH_TOKEN = 'b7e2c9d1-3f4a-4c8e-8d2b-6a1f0e9c5b47';
const LOW = { lowLogin: 'viewer', lowPassword: 'viewer-secret-pw' };
const LOW_BASIC = `Basic ${Buffer.from(`${LOW.lowLogin}:${LOW.lowPassword}`).toString('base64')}`;

const CASES = `
createAuthToken:
  - name: token-for-low
    requires: [writes, low-user]
    steps:
      - name: create a token for the low-privilege user
        operationId: createAuthToken
        as: admin
        path: { id: '{{low.id}}' }
        expect: { status: 200 }
`;

interface Report {
  outcomes: { operationId: string; check: string; failures: { verdict: string; message: string; citation: { source: string; ref: string } }[] }[];
}

let casesDir: string;
beforeAll(() => {
  casesDir = mkdtempSync(join(tmpdir(), 'cases-'));
  writeFileSync(join(casesDir, 'token.yaml'), CASES);
});

const record = (id: string, login: string, token?: string): object => ({ id, login, permissions: [], ...(token ? { authenticationToken: token } : {}) });

/** A server whose administrator record shows ADMIN_TOKEN and whose createAuthToken answers `issued`. */
async function withServer<T>(issued: string, run: (url: string) => Promise<T>): Promise<T> {
  const hostile = await hostileServer((req, res) => {
    const url = req.url ?? '';
    if (answersLogInOrOut(req, res)) return;
    if (req.method === 'POST' && url.startsWith(`/node/api/users/${LOW_ID}/auth-token`)) {
      json(res, 200, issued);
      return;
    }
    if (url.startsWith('/node/api/users/current')) {
      json(res, 200, req.headers.authorization === LOW_BASIC ? record(LOW_ID, LOW.lowLogin) : record(ADMIN_ID, 'admin', ADMIN_TOKEN));
      return;
    }
    json(res, 404, { status: 404, code: 'NOT_FOUND', message: 'no such thing' });
  });
  try {
    return await run(hostile.url);
  } finally {
    await hostile.close();
  }
}

const flags = (baseUrl: string) => ({ baseUrl, cases: casesDir, only: ['cases'], seed: 17, ...LOW });

const REUSED = `the token created for user ${LOW_ID} *** (36 characters) is the API token of user ${ADMIN_ID}, which the run already knew: not a new token, and each of the two users can act as the other`;

/** A check's findings in a JSON report, with the operations it ran on. */
function findingsOf(stdout: string, check = 'token-issued-new'): { ran: string[]; found: string[] } {
  const report = JSON.parse(stdout) as Report;
  const outcomes = report.outcomes.filter((o) => o.check === check);
  return {
    ran: outcomes.map((o) => o.operationId),
    found: outcomes.flatMap((o) => o.failures.map((f) => `${o.operationId} ${f.verdict} ${f.citation.source} ${f.citation.ref}: ${f.message}`)),
  };
}

describe('a created API token that belongs to another user', () => {
  it("is a violation of 4.1 naming both users, when createAuthToken answers the administrator's token for the low user", async () => {
    await withServer(ADMIN_TOKEN, async (baseUrl) => {
      const { stdout, stderr } = await runTexts(flags(baseUrl), 'json');
      if (!stdout) throw new Error(stderr);
      expect(findingsOf(stdout)).toEqual({ ran: ['createAuthToken'], found: [`createAuthToken violation spec 4.1: ${REUSED}`] });
      // The token stays known as the administrator's: the answer shows it where the document
      // marks the low user's token, which no-sensitive-data reports as well (OWASP API3).
      expect(findingsOf(stdout, 'no-sensitive-data').found).toEqual([
        `createAuthToken violation security OWASP API3:2023: (root): the API token of user ${ADMIN_ID} *** (36 characters) where the document marks the token of user ${LOW_ID}`,
      ]);
    });
  }, 60_000);

  it('never shows the token in any report format', async () => {
    const revealed = revealer([ADMIN_TOKEN]);
    await withServer(ADMIN_TOKEN, async (baseUrl) => {
      for (const format of REPORT_FORMATS) {
        const texts = await runTexts(flags(baseUrl), format);
        expect(texts.report, format).toContain(`is the API token of user ${ADMIN_ID}`);
        expect(texts.all.flatMap(revealed), format).toEqual([]);
      }
    });
  }, 120_000);

  it('is no finding when createAuthToken answers a fresh token', async () => {
    await withServer(FRESH_TOKEN, async (baseUrl) => {
      const { stdout, stderr } = await runTexts(flags(baseUrl), 'json');
      if (!stdout) throw new Error(stderr);
      expect(findingsOf(stdout)).toEqual({ ran: ['createAuthToken'], found: [] });
    });
  }, 60_000);
});
