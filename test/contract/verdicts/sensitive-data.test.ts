// No credential the caller did not just create in an answer (OWASP API3): password-like fields
// and hashes in user records, another user's token, a session id in a body. Found with the path,
// the value masked in the finding and in the report.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleReporter } from '../../../src/contract/reporters/console.js';
import { jsonReporter } from '../../../src/contract/reporters/reporter.js';
import { createRecorder } from '../../../src/contract/run/recorder.js';
import { runContract } from '../../../src/contract/run/run-contract.js';
import { createSecrets } from '../../../src/shared/redaction/secret-values.js';
import type { Exchange } from '../../../src/contract/types.js';
import { brokenVariants, LEAKED_PASSWORD } from '../broken/breakages.js';
import { startBreakingProxy } from '../broken/breaking-proxy.js';
import { ADMIN, listeningFake, VIEWER, type ListeningFake } from '../helpers/fake.js';
import { exchange, specAndValidator } from '../helpers/synthetic.js';

const ADMIN_ID = '5867948233835d9661c56dc8';
const LOW_ID = '5867948233835d9661c56dc9';
const LOW_TOKEN = '7c2c1f8e-5d7e-4f5b-9a43-0d8b7b0f2a11';
const SESSION = '0b7f2f1e-8d8c-4c52-93c4-5f1c6c1d2e3f';
const BCRYPT = '$2b$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy';

const at = (e: Exchange, url: string, headers: Record<string, string> = {}, set?: Record<string, string>): Exchange => ({
  ...e,
  request: { method: e.operationId === 'getCurrentUser' || e.operationId === 'getEventLog' ? 'GET' : 'POST', url, headers },
  ...(e.response && set ? { response: { ...e.response, headers: { ...e.response.headers, ...set } } } : {}),
});

async function findings(exchanges: Exchange[]) {
  const { spec, validator } = await specAndValidator();
  const recorder = createRecorder({ spec, validator }, createSecrets());
  for (const e of exchanges) recorder.evaluate(e, {});
  return recorder.outcomes().filter((o) => o.check === 'no-sensitive-data').flatMap((o) => o.failures);
}

const user = (body: Record<string, unknown>): Exchange => at(exchange('getCurrentUser', { status: 200, body: { id: ADMIN_ID, login: 'admin', permissions: [], ...body } }), 'http://127.0.0.1/node/api/users/current', { authorization: 'Basic x' });

describe('no-sensitive-data', () => {
  it('flags a password, pass, passwd, secret or hash field in a user record, with its path and the value masked', async () => {
    const found = await findings([user({ password: 'hunter22', profile: { passwd: 'p4ssw0rd!', pass: 'abc12345' }, apiSecret: 'k-123456', passwordHash: BCRYPT })]);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ verdict: 'violation', operationId: 'getCurrentUser', citation: { source: 'security', ref: 'OWASP API3:2023' } });
    expect(found[0]?.message).toBe(
      '/password: a password-like field *** (8 characters); /profile/passwd: a password-like field *** (9 characters); /profile/pass: a password-like field *** (8 characters); /apiSecret: a password-like field *** (8 characters); and 1 more',
    );
    const text = JSON.stringify(found);
    for (const secret of ['hunter22', 'p4ssw0rd!', 'abc12345', 'k-123456', BCRYPT]) expect(text).not.toContain(secret);
  });

  it('flags a value shaped like a password hash under any name in a user record', async () => {
    const [f] = await findings([user({ credential: BCRYPT })]);
    expect(f?.message).toBe('/credential: a password hash *** (a password hash, 60 characters)');
    expect(createSecrets().shownHead(JSON.stringify({ credential: BCRYPT, pwd: 'x1', note: 'ok' }), 600)).toBe('{"credential":"***","pwd":"***","note":"ok"}');
  });

  it("flags another user's API token in a user record; the place the document marks x-secret holds the caller's own", async () => {
    const created = at(exchange('createAuthToken', { status: 200, body: LOW_TOKEN }), `http://127.0.0.1/node/api/users/${LOW_ID}/auth-token`, { authorization: 'Basic x' });
    const own = at(exchange('getCurrentUser', { status: 200, body: { id: LOW_ID, login: 'viewer', permissions: [], authenticationToken: LOW_TOKEN } }), 'http://127.0.0.1/node/api/users/current', { authorization: 'Basic y' });
    expect(await findings([created, own])).toEqual([]);
    const [f, ...others] = await findings([created, user({ authenticationToken: LOW_TOKEN })]);
    expect(others).toEqual([]);
    expect(f?.message).toBe(`/authenticationToken: the API token of user ${LOW_ID} *** (36 characters) where the document marks the token of user ${ADMIN_ID}`);
  });

  it('says where a marked place holds the token only inside a longer text, whoever owns it', async () => {
    const created = at(exchange('createAuthToken', { status: 200, body: LOW_TOKEN }), `http://127.0.0.1/node/api/users/${LOW_ID}/auth-token`, { authorization: 'Basic x' });
    const [f] = await findings([created, user({ authenticationToken: `token=${LOW_TOKEN}` })]);
    expect(f?.message).toBe(`/authenticationToken: the API token of user ${LOW_ID} *** (42 characters) inside a longer text where the document marks a credential`);
  });

  it('names the owner, and whose token the marked place is for', async () => {
    const created = at(exchange('createAuthToken', { status: 200, body: LOW_TOKEN }), `http://127.0.0.1/node/api/users/${LOW_ID}/auth-token`, { authorization: 'Basic x' });
    // Wrong credentials: the answer is no caller's, and the record it shows is the administrator's.
    const refusedNot = at(exchange('getCurrentUser', { status: 200, body: { id: ADMIN_ID, login: 'admin', permissions: [], authenticationToken: LOW_TOKEN } }, 'wrong-basic'), 'http://127.0.0.1/node/api/users/current');
    const [f] = await findings([created, refusedNot]);
    expect(f?.message).toBe(`/authenticationToken: the API token of user ${LOW_ID} *** (36 characters) where the document marks the token of user ${ADMIN_ID}`);
  });

  it('learns whose token it is from the record a request with that token alone gets', async () => {
    const byToken = at(exchange('getCurrentUser', { status: 200, body: { id: LOW_ID, login: 'viewer', permissions: [] } }), `http://127.0.0.1/node/api/users/current?api-token=${LOW_TOKEN}`);
    const [f] = await findings([byToken, user({ authenticationToken: LOW_TOKEN })]);
    expect(f?.message).toContain(`the API token of user ${LOW_ID}`);
  });

  it('flags a session id in any body but the log-in answer', async () => {
    const login = at(exchange('createSession', { status: 200, body: SESSION }), 'http://127.0.0.1/node/api/users/session', {}, { 'set-cookie': `sid=${SESSION}; Path=/; HttpOnly` });
    expect(await findings([login])).toEqual([]);
    const echoed = at(exchange('getEventLog', { status: 400, body: { status: 400, code: 'INVALID_PARAMETER', message: `bad session ${SESSION}`, session: SESSION } }), 'http://127.0.0.1/node/api/event-log');
    const [f] = await findings([login, echoed]);
    expect(f).toMatchObject({ operationId: 'getEventLog', verdict: 'violation' });
    expect(f?.message).toBe('/message: a session id *** (48 characters); /session: a session id *** (36 characters)');
  });
});

describe('the leaked-password variant, from the run to the report', () => {
  let fake: ListeningFake;
  beforeAll(async () => {
    fake = await listeningFake();
  });
  afterAll(() => fake.close());

  it('fails the run on getCurrentUser and no report shows the password', async () => {
    const variant = brokenVariants.find((v) => v.name === 'leaked-password');
    const proxy = await startBreakingProxy(fake.url, variant?.breakage({ spareToken: '' }) ?? {});
    try {
      const result = await runContract({ baseUrl: proxy.url, admin: ADMIN, low: VIEWER, seed: 2, groups: [] });
      const found = result.outcomes.filter((o) => o.check === 'no-sensitive-data').flatMap((o) => o.failures);
      expect(found.map((f) => `${f.operationId} ${f.verdict} ${f.message}`)).toContain(`getCurrentUser violation /password: a password-like field *** (${LEAKED_PASSWORD.length} characters)`);
      expect(result.exitCode).toBe(1);
      let out = '';
      await consoleReporter((t) => (out += t), () => undefined).finish(result);
      await jsonReporter((t) => (out += t)).finish(result);
      expect(out).toContain('/password: a password-like field');
      expect(out).not.toContain(LEAKED_PASSWORD);
    } finally {
      await proxy.close();
    }
  });
});
