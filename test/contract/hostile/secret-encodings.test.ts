// A server that echoes credentials in the encodings a real server's debug output uses: base64 of
// the whole request body, the Cookie header or the query (so a secret starts at any offset of the
// encoded text, not only at its first character), and percent-encoding with lower-case hex digits.
// No report format holds a secret that decoding its text would reveal.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { check, hostileServer, type HostileServer } from './hostile-server.js';

const ADMIN = { login: 'admin', password: 'Pa/ss w:rd+1 é' };
const TOKEN = 'tok-4f1e9c2a-secret';
const SID = 'sid-77c0ffee-secret';
const SECRETS = [ADMIN.password, TOKEN, SID];

const lowerHex = (text: string): string => text.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());
const b64 = (text: string): string => Buffer.from(text).toString('base64');

let server: HostileServer;
beforeAll(async () => {
  server = await hostileServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const echo = {
        body: b64(body),
        bodyUrl: Buffer.from(`>${body}`).toString('base64url'),
        cookie: b64(`Cookie header: ${req.headers.cookie ?? ''}`),
        query: b64(`${req.method ?? ''} ${req.url ?? ''}`),
        authorization: b64(`Authorization: ${req.headers.authorization ?? ''}`),
        percent: lowerHex(encodeURIComponent(ADMIN.password)),
        form: lowerHex(new URLSearchParams({ p: ADMIN.password }).toString()),
        cookiePercent: lowerHex(encodeURIComponent(req.headers.cookie ?? '')),
      };
      const headers: Record<string, string | string[]> = { 'content-type': 'application/json' };
      if (req.method === 'POST' && req.url?.startsWith('/node/api/users/session')) headers['set-cookie'] = [`sid=${SID}; Path=/; HttpOnly`];
      const current = req.url?.startsWith('/node/api/users/current') === true;
      res.writeHead(current ? 200 : 500, headers);
      res.end(JSON.stringify(current ? { id: '5867948233835d9661c56dc8', login: 'admin', echo } : { status: 500, code: 'ECHO', message: JSON.stringify(echo) }));
    });
  });
});
afterAll(() => server.close());

/** The secrets a text reveals: as they are, percent-decoded, or inside any base64 or base64url run, at any offset. */
function revealed(text: string): string[] {
  const found = new Set<string>();
  const look = (candidate: string): void => {
    for (const s of SECRETS) if (candidate.includes(s)) found.add(s);
  };
  look(text);
  look(text.replace(/%[0-9a-f]{2}/gi, (m) => String.fromCharCode(parseInt(m.slice(1), 16))));
  try {
    look(decodeURIComponent(text.replace(/\+/g, ' ')));
  } catch {
    // Text with a stray % is not one encoded string; the pass above decodes it escape by escape.
  }
  for (const run of text.match(/[A-Za-z0-9+/_-]{8,}/g) ?? []) {
    for (let offset = 0; offset < 4; offset++) {
      look(Buffer.from(run.slice(offset), 'base64').toString('utf8'));
      look(Buffer.from(run.slice(offset), 'base64url').toString('utf8'));
    }
  }
  return [...found];
}

const flags = { login: ADMIN.login, password: ADMIN.password, token: TOKEN, quiet: false, seed: 5 };

describe('the runner against a server that echoes credentials base64-encoded at any offset, and percent-encoded in lower case', () => {
  it.each(['console', 'json'] as const)('the %s report and stderr reveal no secret', async (reporter) => {
    const { code, stdout, stderr } = await check({ ...flags, baseUrl: server.url, reporter });
    expect(code).toBe(1);
    // The echoes reached the report.
    expect(stdout).toContain('ECHO');
    expect(revealed(stdout)).toEqual([]);
    expect(revealed(stderr)).toEqual([]);
  }, 60_000);

  it.each(['junit', 'html', 'markdown'] as const)('the %s file reveals no secret', async (reporter) => {
    const output = join(mkdtempSync(join(tmpdir(), 'report-')), 'report');
    const { code, stdout, stderr } = await check({ ...flags, baseUrl: server.url, reporter, output });
    expect(code).toBe(1);
    const file = readFileSync(output, 'utf8');
    expect(file).toContain('ECHO');
    for (const text of [file, stdout, stderr]) expect(revealed(text)).toEqual([]);
  }, 60_000);
});
