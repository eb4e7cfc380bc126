// Two servers whose user records leak different password hashes and secrets: the drift report of
// --compare-with shows where they differ, never the values of fields named like secrets or
// shaped like password hashes (the same rule as every body a report shows).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { check, hostileServer, json, type HostileServer } from './hostile-server.js';

const LEAKS = [
  { password: 'first-server-password', hash: '$2b$10$abcdefghijklmnopqrstuuMfy3wvtOZ6nA7fHvjSgkQxOeBhkSnXa', apiSecret: 'first-api-secret-value' },
  { password: 'second-server-password', hash: '$2b$10$zyxwvutsrqponmlkjihgfeMfy3wvtOZ6nA7fHvjSgkQxOeBhkSnXa', apiSecret: 'second-api-secret-value' },
];

function userServer(leak: (typeof LEAKS)[number]): Promise<HostileServer> {
  return hostileServer((req, res) => {
    if (req.url?.startsWith('/node/api/users/current') && req.headers.authorization) {
      json(res, 200, { id: '5867948233835d9661c56dc8', login: 'admin', permissions: [], password: leak.password, settings: { apiSecret: leak.apiSecret }, hashes: [leak.hash] });
      return;
    }
    json(res, 401, { status: 401, code: 'UNAUTHORIZED', message: 'Authentication required.' });
  });
}

let servers: HostileServer[] = [];
beforeAll(async () => {
  servers = await Promise.all(LEAKS.map(userServer));
});
afterAll(() => Promise.all(servers.map((s) => s.close())));

describe('the drift report of two servers that leak different secrets', () => {
  it.each(['console', 'json'] as const)('%s: the drift is reported, its secret values masked', async (reporter) => {
    const [a, b] = servers as [HostileServer, HostileServer];
    const { stdout, stderr } = await check({ baseUrl: a.url, compareWith: b.url, reporter, only: ['authentication'], seed: 2 });
    expect(stdout).toMatch(/value differs/i);
    for (const leak of LEAKS) {
      for (const value of Object.values(leak)) {
        expect(stdout, value).not.toContain(value);
        expect(stderr, value).not.toContain(value);
      }
    }
  }, 60_000);
});
