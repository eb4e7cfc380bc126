// A server that sets cookies named after what reports say: `getCurrentUser` on every answer to a
// Basic request (cookies the runner does not keep), `users` and `current` in the cookies of its
// session (kept and sent back, but too short to tell from ordinary text). None becomes a mask:
// operation names and paths stay whole in every report, while the session id is still masked.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { check, hostileServer, json, type HostileServer } from './hostile-server.js';

const SID = 'sid-5d1c0a9e-session';

let server: HostileServer;
beforeAll(async () => {
  server = await hostileServer((req, res) => {
    const cookies: string[] = [];
    if (req.method === 'POST' && req.url?.startsWith('/node/api/users/session')) cookies.push(`sid=${SID}; Path=/; HttpOnly`, 'lang=users; Path=/');
    else if (req.headers.authorization?.startsWith('Basic ')) cookies.push('verdict=getCurrentUser; Path=/', 'n=0; Path=/');
    else if (req.headers.cookie) cookies.push('view=current; Path=/');
    const headers = { 'set-cookie': cookies } as unknown as Record<string, string>;
    if (req.url?.startsWith('/node/api/users/current') && req.headers.cookie === undefined) {
      json(res, 200, { id: '5867948233835d9661c56dc8', login: 'admin', permissions: [] }, headers);
      return;
    }
    json(res, 500, { status: 500, code: 'ECHO', message: `you sent ${req.headers.cookie ?? 'no cookie'}` }, headers);
  });
});
afterAll(() => server.close());

describe('the runner against a server that sets cookies named after what reports say', () => {
  const flags = () => ({ baseUrl: server.url, quiet: false, seed: 7 });

  it.each(['console', 'json'] as const)('the %s report keeps operation names and paths whole, and masks the session id', async (reporter) => {
    const { code, stdout } = await check({ ...flags(), reporter });
    expect(code).toBe(1);
    for (const word of ['getCurrentUser', '/node/api/users/current', `sid=***`]) expect(stdout).toContain(word);
    expect(stdout).not.toContain(SID);
  }, 60_000);

  it.each(['junit', 'html', 'markdown'] as const)('the %s file keeps operation names and paths whole, and masks the session id', async (reporter) => {
    const output = join(mkdtempSync(join(tmpdir(), 'report-')), 'report');
    const { code } = await check({ ...flags(), reporter, output });
    expect(code).toBe(1);
    const file = readFileSync(output, 'utf8');
    for (const word of ['getCurrentUser', '/node/api/users/current']) expect(file).toContain(word);
    expect(file).not.toContain(SID);
  }, 60_000);
});
