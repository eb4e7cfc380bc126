import { describe, expect, it } from 'vitest';
import { toCurl } from '../../src/contract/curl.js';
import { createSecrets, mapStrings } from '../../src/contract/secrets.js';

describe('secrets and curl', () => {
  it('masks Authorization, cookies, csrf, tokens in the query and passwords in bodies', () => {
    const secrets = createSecrets();
    const masked = secrets.maskRequest({
      method: 'POST',
      url: 'http://127.0.0.1:4010/node/api/users/current?api-token=32925106-8c56-41d1-8713-410f203e8ce0&auth-token=abc&limit=5',
      headers: { authorization: 'Basic YWRtaW46YWRtaW4tcGFzc3dvcmQ=', cookie: 'sid=7b9d2b27; csrf=4f6c', 'x-csrf-token': '4f6c', accept: 'application/json' },
      body: JSON.stringify({ login: 'admin', password: 'admin-password' }),
    });
    const curl = toCurl(masked);
    expect(curl).toBe(
      "curl -sS -i -X POST 'http://127.0.0.1:4010/node/api/users/current?api-token=***&auth-token=***&limit=5' " +
        "-H 'authorization: Basic ***' -H 'cookie: sid=***; csrf=***' -H 'x-csrf-token: ***' --data-raw '{\"login\":\"admin\",\"password\":\"***\"}'",
    );
    for (const secret of ['YWRtaW46', '32925106', 'admin-password', '7b9d2b27', '4f6c']) expect(curl).not.toContain(secret);
  });

  it("masks no spelling of a value a server chose that is found in the runner's own text, nor one of several words; a given secret always", () => {
    const secrets = createSecrets();
    secrets.ownText('FAILED: 12 violation(s) in 30 requests to http://127.0.0.1:4010\ngetCurrentUser  status-documented');
    for (const word of ['violation(s)', 'status-documented', 'getCurrentUser', '127.0.0.1:9', '73 requests', '999999999']) secrets.addIssued(word);
    secrets.addIssued('sid-4c1e0b7a-issued');
    secrets.add('getCurrentUser-given');
    const own = 'FAILED: 3 violation(s) in 73 requests to http://127.0.0.1:9 (seed 999999999); getCurrentUser status-documented';
    expect(secrets.mask(own)).toBe(own);
    expect(secrets.mask('sid=sid-4c1e0b7a-issued; c2lkLTRjMWUwYjdhLWlzc3VlZA getCurrentUser-given')).toBe('sid=***; *** ***');
  });

  it('masks known secrets wherever they appear, longest first', () => {
    const secrets = createSecrets();
    secrets.add('7b9d2b27-a47d-4bbe-a2f7-2c63bf356db0');
    secrets.add('7b9d');
    secrets.add('ab'); // too short to mask safely
    expect(secrets.mask('"7b9d2b27-a47d-4bbe-a2f7-2c63bf356db0" and 7b9d and ab')).toBe('"***" and *** and ab');
  });

  it('masks credentials in every spelling: base64 of login:password, percent- and form-encoded, JSON-escaped, URL userinfo', () => {
    const secrets = createSecrets();
    secrets.addCredentials({ login: 'admin', password: 'p w"&' });
    secrets.addUrl('http://who:s%40cret-1@127.0.0.1:1/');
    const text = [
      Buffer.from('admin:p w"&').toString('base64'),
      Buffer.from('admin:p w"&').toString('base64url'),
      encodeURIComponent('p w"&'),
      'p+w%22%26',
      JSON.stringify('p w"&'),
      'http://who:s%40cret-1@127.0.0.1:1/',
      's@cret-1',
    ].join(' ');
    expect(secrets.mask(text)).toBe('*** *** *** *** "***" http://who:***@127.0.0.1:1/ ***');
    expect(mapStrings({ a: [{ b: 's@cret-1' }], n: 1 }, secrets.mask)).toEqual({ a: [{ b: '***' }], n: 1 });
  });

  it('masks a secret under two layers of encoding, wherever it starts in the encoded text', () => {
    const secrets = createSecrets();
    secrets.addCredentials({ login: 'admin', password: 'p w"&é' });
    const b64 = (text: string): string => Buffer.from(text).toString('base64');
    const hex = (text: string): string => Buffer.from(text).toString('hex');
    const stacked = [
      b64(b64('admin:p w"&é')),
      b64(`Authorization: Basic ${b64('admin:p w"&é')}`),
      b64(`{"login":"admin","password":"p w\\"&é"}`),
      b64(`body=${encodeURIComponent('p w"&é')}`).replace(/=+$/, ''),
      encodeURIComponent(b64(`Cookie: a=p w"&é`)).replace(/%[0-9A-F]{2}/g, (m) => m.toLowerCase()),
      Buffer.from(`>${hex('p w"&é')}`).toString('base64url'),
      hex(b64('..p w"&é')).toUpperCase(),
    ];
    for (const text of stacked) {
      const masked = secrets.mask(text);
      expect(masked, text).toContain('***');
    }
  });

  it('masks a value over 1,024 characters through one layer of encoding only', () => {
    const secrets = createSecrets();
    const long = 'k'.repeat(1025);
    secrets.addIssued(long);
    const b64 = (text: string): string => Buffer.from(text).toString('base64');
    expect(secrets.mask(b64(long))).toBe('***');
    expect(secrets.mask(b64(b64(long)))).toBe(b64(b64(long)));
  });

  it('masks a value a server issued only when it is long enough to tell from ordinary text', () => {
    const secrets = createSecrets();
    for (const value of ['PASSED', '0', 'users', 'current']) secrets.addIssued(value);
    secrets.addIssued('7b9d2b27-a47d');
    expect(secrets.mask('PASSED 0 /node/api/users/current 7b9d2b27-a47d')).toBe('PASSED 0 /node/api/users/current ***');
  });

  it('quotes single quotes for the shell', () => {
    expect(toCurl({ method: 'PATCH', url: 'http://h/x', headers: {}, body: `{"text":"it's"}` })).toBe(`curl -sS -i -X PATCH 'http://h/x' --data-raw '{"text":"it'\\''s"}'`);
  });
});
