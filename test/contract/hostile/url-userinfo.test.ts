// A base URL whose userinfo is a token alone (`https://<token>@host`, as some gateways take
// one) carries a credential in its user name: no report or error line shows it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { check, hostileServer, json, type HostileServer } from './hostile-server.js';

const TOKEN = 'gw-token-5d1c0e77-secret';

let server: HostileServer;
beforeAll(async () => {
  server = await hostileServer((req, res) => {
    // The echo a careless gateway adds: the URL it was asked for, the token included.
    const echo = `asked for http://${TOKEN}@${req.headers.host ?? ''}${req.url ?? ''}`;
    json(res, req.url?.startsWith('/node/api/users/current') && req.headers.authorization ? 200 : 500, { id: '5867948233835d9661c56dc8', login: 'admin', status: 500, code: 'ECHO', message: echo });
  });
});
afterAll(() => server.close());

describe('a base URL with a token as its user name', () => {
  it.each(['console', 'json'] as const)('%s: neither the report nor stderr shows the token', async (reporter) => {
    const baseUrl = server.url.replace('http://', `http://${TOKEN}@`);
    const { stdout, stderr } = await check({ baseUrl, reporter, quiet: false, only: ['authentication'], seed: 3 });
    expect(stdout).toMatch(/ECHO/);
    for (const text of [stdout, stderr]) {
      expect(text).not.toContain(TOKEN);
      expect(text).not.toContain(encodeURIComponent(TOKEN));
    }
  }, 60_000);
});
