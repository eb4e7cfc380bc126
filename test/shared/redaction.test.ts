import { describe, expect, it } from 'vitest';
import { toCurl } from '../../src/contract/curl.js';
import { loadSpec } from '../../src/spec/index.js';
import { maskUrl, maskUrlsIn } from '../../src/shared/redaction/mask-url.js';
import { mapStrings, maskSecretFields, createSecrets } from '../../src/shared/redaction/secret-values.js';
import { isSecretName, secretNamesOf, SECRET_NAMES } from '../../src/shared/redaction/secret-names.js';

// The one redaction of the kit: what the fake's logs and journal, the runner's reports and the
// recordings mask. Each output's own tests show it masked there; these show the rules themselves.

describe('the names of secrets', () => {
  it("hold every name the document gives a credential: its security schemes' and the properties it marks x-secret", async () => {
    const spec = await loadSpec();
    const named = secretNamesOf(spec.document);
    expect(named).toEqual(expect.arrayContaining(['sid', 'api-token', 'auth-token', 'authenticationToken']));
    for (const name of named) expect(SECRET_NAMES, name).toContain(name);
    expect(['password', 'passwordHash', 'client_secret', 'X-CSRF-Token'].every(isSecretName)).toBe(true);
    expect(['login', 'limit', 'entityName'].some(isSecretName)).toBe(false);
  });
});

describe('URL masking', () => {
  it('masks secret query parameters, however spelled, and the userinfo of an absolute URL', () => {
    expect(maskUrl('/a?api-token=abc&limit=5&auth-token=def#x', '***')).toBe('/a?api-token=***&limit=5&auth-token=***#x');
    expect(maskUrl('/a?API%2DTOKEN=abc&password=pw&sid', '***')).toBe('/a?API%2DTOKEN=***&password=***&sid');
    expect(maskUrl('http://who:s@cret@host:1/p?token=t', '***')).toBe('http://***@host:1/p?token=***');
    expect(maskUrlsIn('GET http://ops:p@w@10.0.0.9/x and /node/api/users/current?api-token=abc and ?auth-token=z&limit=5', '***')).toBe(
      'GET http://***@10.0.0.9/x and /node/api/users/current?api-token=*** and ?auth-token=***&limit=5',
    );
  });
});

describe('secret fields of JSON', () => {
  it('masks string values of fields named like secrets and values shaped like password hashes, in text cut off too', () => {
    const hash = `$2b$10$${'a'.repeat(53)}`;
    expect(maskSecretFields(`{"login":"a","password":"p","x":"${hash}","authenticationToken":"abc`, '***')).toBe('{"login":"a","password":"***","x":"***","authenticationToken":"***');
    expect(mapStrings({ a: [{ b: 'x' }], n: 1 }, (t) => t.toUpperCase())).toEqual({ A: [{ B: 'X' }], N: 1 });
  });
});

describe('known secrets', () => {
  it('masks Authorization, cookies, csrf, tokens in the query and passwords in bodies of a request', () => {
    const masked = createSecrets().maskRequest({
      method: 'POST',
      url: 'http://127.0.0.1:4010/node/api/users/current?api-token=32925106-8c56-41d1-8713-410f203e8ce0&auth-token=abc&limit=5',
      headers: { authorization: 'Basic YWRtaW46YWRtaW4tcGFzc3dvcmQ=', cookie: 'sid=7b9d2b27; csrf=4f6c', 'x-csrf-token': '4f6c', accept: 'application/json' },
      body: JSON.stringify({ login: 'admin', password: 'admin-password' }),
    });
    expect(toCurl(masked)).toBe(
      "curl -sS -i -X POST 'http://127.0.0.1:4010/node/api/users/current?api-token=***&auth-token=***&limit=5' " +
        "-H 'authorization: Basic ***' -H 'cookie: sid=***; csrf=***' -H 'x-csrf-token: ***' --data-raw '{\"login\":\"admin\",\"password\":\"***\"}'",
    );
  });

  it('masks a secret in every spelling: base64 of login:password, percent- and form-encoded, JSON-escaped, \\u-escaped', () => {
    const secrets = createSecrets();
    const password = 'pä w"&/';
    secrets.addCredentials({ login: 'admin', password });
    secrets.addUrl('http://who:s%40cret-1@127.0.0.1:1/');
    const json = JSON.stringify(password).slice(1, -1);
    const text = [
      Buffer.from(`admin:${password}`).toString('base64'),
      Buffer.from(`admin:${password}`).toString('base64url'),
      encodeURIComponent(password),
      encodeURIComponent(password).toLowerCase(),
      new URLSearchParams({ v: password }).toString().slice(2),
      json,
      json.replace('ä', '\\u00e4'),
      json.replace('ä', '\\u00E4').replace('/', '\\/'),
      password.replace(/[^A-Za-z0-9]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`),
      's@cret-1',
    ].join(' | ');
    expect(secrets.mask(text)).toBe(Array(10).fill('***').join(' | '));
  });

  it('masks before any cut: the head of a secret where a text was cut off is masked too, the login before a password is not', () => {
    const secrets = createSecrets();
    secrets.addCredentials({ login: 'admin', password: 'admin-password' });
    expect(secrets.mask('redirect to http://h/login/admin-passwor… and 2 other place(s)')).toBe('redirect to http://h/login/***… and 2 other place(s)');
    expect(secrets.mask('filter "admin-pass..." as admin…')).toBe('filter "***..." as admin…');
  });

  it('masks a value a server issued only when it is long enough and one word to tell from ordinary text', () => {
    const secrets = createSecrets();
    for (const value of ['PASSED', '0', 'users', 'current', 'two words here']) secrets.addIssued(value);
    secrets.addIssued('7b9d2b27-a47d');
    secrets.add('ab');
    expect(secrets.mask('PASSED 0 /node/api/users/current two words here 7b9d2b27-a47d ab')).toBe('PASSED 0 /node/api/users/current two words here *** ab');
  });
});
