// Without --token, the runner takes the administrator's API token from its own record: the value
// the document marks `x-secret` in the getCurrentUser answer of the status answered. A record of
// a status the document does not describe (203: no schema, no mark) shows only a field of that
// name: the runner takes no token from it, and a case that needs one does not run.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { answersLogInOrOut, check, hostileServer, json } from './hostile-server.js';

const TOKEN = '4d0c8f3a-7e21-4b6d-9a5e-2c1f0b8e7d63';

const CASES = `
getCurrentUser:
  - name: by-token
    requires: [token]
    steps:
      - { name: read the user with the token, operationId: getCurrentUser, auth: token, expect: { status: [200, 203] } }
`;

let casesDir: string;
beforeAll(() => {
  casesDir = mkdtempSync(join(tmpdir(), 'cases-'));
  writeFileSync(join(casesDir, 'token.yaml'), CASES);
});

/** The request URLs of a run against a server whose getCurrentUser answers `status` with a record showing TOKEN. */
async function urlsSeen(status: number): Promise<string[]> {
  const urls: string[] = [];
  const hostile = await hostileServer((req, res) => {
    const url = req.url ?? '';
    urls.push(url);
    if (answersLogInOrOut(req, res)) return;
    json(res, status, { id: '5867948233835d9661c56dc8', login: 'admin', permissions: [], authenticationToken: TOKEN });
  });
  try {
    const { stdout, stderr } = await check({ baseUrl: hostile.url, cases: casesDir, only: ['cases'], reporter: 'json', seed: 17 });
    if (!stdout) throw new Error(stderr);
    return urls;
  } finally {
    await hostile.close();
  }
}

describe("the administrator's API token read from its record", () => {
  it('is the value the document marks in the record: the case that needs it sends it', async () => {
    expect((await urlsSeen(200)).filter((url) => url.includes(`api-token=${TOKEN}`))).toEqual([`/node/api/users/current?api-token=${TOKEN}`]);
  }, 60_000);

  it('is none in an answer of a status the document does not describe: nothing sends it', async () => {
    const urls = await urlsSeen(203);
    expect(urls.some((url) => url.startsWith('/node/api/users/current'))).toBe(true);
    expect(urls.filter((url) => url.includes(TOKEN))).toEqual([]);
  }, 60_000);
});
