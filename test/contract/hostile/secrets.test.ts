// A server that echoes every credential it gets (Authorization, cookies, the query, decoded Basic
// passwords) into bodies and headers: no form of any secret reaches a report, in any reporter.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { check, hostileServer, type HostileServer } from './hostile-server.js';

const ADMIN = { login: 'admin', password: `pw "quoted" & <tagged> o'k/+ %` };
const LOW = { login: 'viewer', password: 'low-secret-pw' };
const TOKEN = 'tok-4f1e9c2a-secret';
const SID = 'sid-77c0ffee-secret';
const URL_PASSWORD = 'url-secret-9';

const b64 = (text: string): string => Buffer.from(text).toString('base64');
const b64url = (text: string): string => Buffer.from(text).toString('base64url');

/** Every spelling of every secret a report might carry. */
function forms(): string[] {
  const out = new Set<string>();
  for (const secret of [ADMIN.password, LOW.password, TOKEN, SID, URL_PASSWORD]) {
    out.add(secret);
    out.add(encodeURIComponent(secret));
    out.add(new URLSearchParams({ x: secret }).toString().slice(2));
    out.add(JSON.stringify(secret).slice(1, -1));
    out.add(b64(secret).replace(/=+$/, ''));
  }
  for (const { login, password } of [ADMIN, LOW, { login: 'who', password: URL_PASSWORD }]) {
    out.add(b64(`${login}:${password}`).replace(/=+$/, ''));
    out.add(b64url(`${login}:${password}`));
  }
  return [...out];
}

let server: HostileServer;
beforeAll(async () => {
  server = await hostileServer((req, res) => {
    const authorization = req.headers.authorization ?? '';
    const decoded = authorization.startsWith('Basic ') ? Buffer.from(authorization.slice(6), 'base64').toString() : '';
    const echo = {
      status: 500,
      code: 'ECHO',
      message: `you sent ${authorization} ${req.headers.cookie ?? ''} ${req.url ?? ''}`,
      basic: decoded,
      b64url: b64url(decoded),
      encoded: encodeURIComponent(decoded),
      form: new URLSearchParams({ decoded }).toString(),
    };
    const headers: Record<string, string | string[]> = { 'content-type': `application/json; echo="${authorization}"`, 'x-echo': `${authorization} ${req.headers.cookie ?? ''}` };
    if (req.method === 'POST' && req.url?.startsWith('/node/api/users/session')) headers['set-cookie'] = [`sid=${SID}; Path=/; HttpOnly`];
    res.writeHead(req.url?.includes('/users/current') && req.method === 'GET' ? 200 : 500, headers);
    res.end(JSON.stringify(req.url?.includes('/users/current') ? { id: '5867948233835d9661c56dc8', login: 'admin', authenticationToken: TOKEN, echo } : echo));
  });
});
afterAll(() => server.close());

describe('the runner against a server that echoes credentials', () => {
  const baseUrl = (): string => server.url.replace('http://', `http://who:${URL_PASSWORD}@`);
  const flags = () => ({ baseUrl: baseUrl(), login: ADMIN.login, password: ADMIN.password, lowLogin: LOW.login, lowPassword: LOW.password, token: TOKEN, quiet: false, seed: 3 });

  it.each(['console', 'json'] as const)('%s report, progress and stderr hold no form of any secret', async (reporter) => {
    const { code, stdout, stderr } = await check({ ...flags(), reporter });
    expect(code).toBe(1);
    // The echoes did reach the findings: the server's answers are in the report, masked.
    expect(stdout).toMatch(/\*\*\*/);
    for (const secret of forms()) {
      expect(stdout, secret).not.toContain(secret);
      expect(stderr, secret).not.toContain(secret);
    }
  }, 60_000);

  it('the JUnit file holds no form of any secret', async () => {
    const output = join(mkdtempSync(join(tmpdir(), 'junit-')), 'contract.xml');
    const { code, stdout, stderr } = await check({ ...flags(), reporter: 'junit', output });
    expect(code).toBe(1);
    const xml = readFileSync(output, 'utf8');
    expect(xml).toContain('<testsuite');
    const escaped = (text: string): string => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
    for (const secret of forms()) {
      for (const text of [xml, stdout, stderr]) {
        expect(text, secret).not.toContain(secret);
        expect(text, secret).not.toContain(escaped(secret));
      }
    }
  }, 60_000);

  it('the error line that ends a run does not show the credentials of the base URL', async () => {
    const blocking = await hostileServer((_req, res) => {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '999' });
      res.end('{"status":429,"code":"RATE_LIMITED","message":"Too many requests."}');
    });
    try {
      const { code, stderr } = await check({ ...flags(), baseUrl: blocking.url.replace('http://', `http://who:${URL_PASSWORD}@`) });
      expect(code).toBe(2);
      expect(stderr).toMatch(/blocked the run/);
      for (const secret of forms()) expect(stderr, secret).not.toContain(secret);
    } finally {
      await blocking.close();
    }
  }, 30_000);
});
