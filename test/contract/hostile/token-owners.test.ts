// A no-sensitive-data finding on an API token says whose token it is when the run knows, and where
// it appeared: outside the places the document marks `x-secret`, or in a marked place that belongs
// to another user's token.
// The tokens are learned from the records a hostile server answers getCurrentUser with.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { answersLogInOrOut, check, hostileServer, json } from './hostile-server.js';

const ADMIN_ID = '5867948233835d9661c56dc8';
const LOW_ID = '5867948233835d9661c56dc9';
const TOKEN = '4d0c8f3a-7e21-4b6d-9a5e-2c1f0b8e7d63';
const LOW = { lowLogin: 'viewer', lowPassword: 'viewer-secret-pw' };
const LOW_BASIC = `Basic ${Buffer.from(`${LOW.lowLogin}:${LOW.lowPassword}`).toString('base64')}`;

/** Reads the record, then the event log (whose error echoes the token) as each actor named. */
const cases = (actors: readonly string[]): string => `
getEventLog:
  - name: token-echoed
${actors.includes('low') ? '    requires: [low-user]\n' : ''}    steps:
${actors.map((as) => `      - { name: read the log as ${as}, operationId: getEventLog, as: ${as}, expect: { status: 400 } }`).join('\n')}
`;

interface Report {
  outcomes: { operationId: string; check: string; failures: { verdict: string; message: string }[] }[];
}

let adminOnly: string;
let withLow: string;
beforeAll(() => {
  adminOnly = mkdtempSync(join(tmpdir(), 'cases-'));
  writeFileSync(join(adminOnly, 'echo.yaml'), cases(['admin']));
  withLow = mkdtempSync(join(tmpdir(), 'cases-'));
  writeFileSync(join(withLow, 'echo.yaml'), cases(['admin', 'low']));
});

/** The no-sensitive-data findings of a run against a server answering getCurrentUser with these records. */
async function findings(records: { admin: object; low?: object }, casesDir: string, low = {}): Promise<string[]> {
  const hostile = await hostileServer((req, res) => {
    const url = req.url ?? '';
    if (answersLogInOrOut(req, res)) return;
    if (url.startsWith('/node/api/users/current')) {
      json(res, 200, req.headers.authorization === LOW_BASIC && records.low ? records.low : records.admin);
      return;
    }
    json(res, 400, { status: 400, code: 'INVALID_PARAMETER', message: `no log for ${TOKEN}` });
  });
  try {
    const { stdout, stderr } = await check({ baseUrl: hostile.url, cases: casesDir, only: ['cases'], reporter: 'json', seed: 17, ...low });
    if (!stdout) throw new Error(stderr);
    const report = JSON.parse(stdout) as Report;
    return report.outcomes.filter((o) => o.check === 'no-sensitive-data').flatMap((o) => o.failures.map((f) => `${o.operationId} ${f.verdict} ${f.message}`));
  } finally {
    await hostile.close();
  }
}

const record = (id: string | undefined, token?: string): object => ({ ...(id ? { id } : {}), login: 'someone', permissions: [], ...(token ? { authenticationToken: token } : {}) });

describe('whose API token a no-sensitive-data finding names, and where it was', () => {
  it("names the owner of a token echoed where the document marks no credential", async () => {
    expect(await findings({ admin: record(ADMIN_ID, TOKEN) }, adminOnly)).toEqual([
      `getEventLog violation /message: the API token of user ${ADMIN_ID} *** (47 characters) where the document marks no credential`,
    ]);
  }, 60_000);

  it("names another user's token, in the place the document marks for the caller's own and where it marks none", async () => {
    expect(await findings({ admin: record(ADMIN_ID, TOKEN), low: record(LOW_ID, TOKEN) }, withLow, LOW)).toEqual([
      `getCurrentUser violation /authenticationToken: the API token of user ${ADMIN_ID} *** (36 characters) where the document marks the token of user ${LOW_ID}`,
      `getEventLog violation /message: the API token of user ${ADMIN_ID} *** (47 characters) where the document marks no credential`,
      `getEventLog violation /message: the API token of user ${ADMIN_ID} *** (47 characters) where the document marks no credential`,
    ]);
  }, 60_000);

  it('says so when the owner of the token is not known', async () => {
    // A record without an id: the token it shows is known, whose it is is not.
    expect(await findings({ admin: record(undefined, TOKEN) }, adminOnly)).toEqual([
      'getEventLog violation /message: an API token *** (47 characters) where the document marks no credential',
    ]);
  }, 60_000);
});
