// A server that echoes credentials in the encodings a real server's debug output uses: base64 of
// the whole request body, the Cookie header or the query (so a secret starts at any offset of the
// encoded text, not only at its first character), percent-encoding with lower-case hex digits,
// hex, and two of them stacked (the Basic header base64-encoded again, the base64 of the
// percent-encoded body, the percent-encoded base64 of the Cookie header…). No report format holds
// a secret that one or two layers of decoding its text would reveal.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { check, hostileServer, type HostileServer } from './hostile-server.js';
import { revealer } from './revealed.js';

const ADMIN = { login: 'admin', password: 'Pa/ss w:rd+1 é' };
const TOKEN = 'tok-4f1e9c2a-secret';
const SID = 'sid-77c0ffee-secret';
const SECRETS = [ADMIN.password, TOKEN, SID];

const lowerHex = (text: string): string => text.replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase());
const b64 = (text: string): string => Buffer.from(text).toString('base64');
const hex = (text: string): string => Buffer.from(text).toString('hex');

// What the server last received of each credential, echoed in later answers too.
const last = { body: '', cookie: '', authorization: '', url: '' };
let answers = 0;

/** Echoes under two layers of encoding: one decoding of the report still shows an encoded text. */
const stacked = (): Record<string, string> => ({
  basicTwice: b64(last.authorization.replace(/^Basic /, '')),
  authorizationTwice: b64(b64(`Authorization: ${last.authorization}`)),
  bodyTwice: b64(b64(last.body)),
  bodyPercentThenBase64: b64(`body=${lowerHex(encodeURIComponent(last.body))}`),
  cookieBase64ThenPercent: encodeURIComponent(b64(`Cookie header: ${last.cookie}`)),
  queryBase64ThenBase64url: Buffer.from(`q=${b64(last.url)}`).toString('base64url'),
  bodyHexThenBase64: b64(`>>${hex(last.body)}`),
  bodyBase64ThenHex: hex(b64(`>${last.body}`)),
});
const STACKED = Object.keys(stacked());

let server: HostileServer;
beforeAll(async () => {
  server = await hostileServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (body) last.body = body;
      if (req.headers.cookie) last.cookie = req.headers.cookie;
      if (req.headers.authorization) last.authorization = req.headers.authorization;
      if (req.url?.includes('token=')) last.url = req.url;
      // One stacked echo, in turn, first in each answer: whole inside the head of a body a report shows.
      const twice = stacked();
      const turn = STACKED[answers++ % STACKED.length] ?? '';
      const echo = {
        [turn]: twice[turn],
        body: b64(body),
        bodyUrl: Buffer.from(`>${body}`).toString('base64url'),
        cookie: b64(`Cookie header: ${req.headers.cookie ?? ''}`),
        query: b64(`${req.method ?? ''} ${req.url ?? ''}`),
        authorization: b64(`Authorization: ${req.headers.authorization ?? ''}`),
        percent: lowerHex(encodeURIComponent(ADMIN.password)),
        form: lowerHex(new URLSearchParams({ p: ADMIN.password }).toString()),
        cookiePercent: lowerHex(encodeURIComponent(req.headers.cookie ?? '')),
        bodyHex: hex(body),
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

const revealed = revealer(SECRETS);

const flags = { login: ADMIN.login, password: ADMIN.password, token: TOKEN, quiet: false, seed: 5 };

describe('the runner against a server that echoes credentials base64-encoded at any offset, and percent-encoded in lower case', () => {
  it.each(['console', 'json'] as const)('the %s report and stderr reveal no secret', async (reporter) => {
    const { code, stdout, stderr } = await check({ ...flags, baseUrl: server.url, reporter });
    expect(code).toBe(1);
    // The echoes reached the report, each stacked one first in some body (so whole in its head).
    expect(stdout).toContain('ECHO');
    for (const name of STACKED) expect(stdout).toContain(name);
    expect(revealed(stdout)).toEqual([]);
    expect(revealed(stderr)).toEqual([]);
  }, 60_000);

  it.each(['junit', 'html', 'markdown'] as const)('the %s file reveals no secret', async (reporter) => {
    const output = join(mkdtempSync(join(tmpdir(), 'report-')), 'report');
    const { code, stdout, stderr } = await check({ ...flags, baseUrl: server.url, reporter, output });
    expect(code).toBe(1);
    const file = readFileSync(output, 'utf8');
    expect(file).toContain('ECHO');
    for (const name of STACKED) expect(file).toContain(name);
    for (const text of [file, stdout, stderr]) expect(revealed(text)).toEqual([]);
  }, 60_000);
});
