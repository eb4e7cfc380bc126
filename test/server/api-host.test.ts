import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { buildFake, type FakeApp } from '../../src/server/build.js';
import type { FakeOptions } from '../../src/server/options.js';
import { rawRequest } from '../helpers/raw-http.js';
import { exchange } from '../helpers/raw-socket.js';
import { control } from './control/helpers.js';
import { API, basicOf, expectConforms, spec, USERS } from './helpers.js';

// DNS rebinding: a page on the attacker's domain re-points its own name at 127.0.0.1 and calls
// the developer's fake under that name. The monitoring API answers only Hosts it was allowed.

const apps: FakeApp[] = [];
afterAll(() => Promise.all(apps.map((app) => app.close())));
async function fake(options: FakeOptions = {}): Promise<FakeApp> {
  const app = await buildFake({ spec, docs: false, records: 20, ...options });
  apps.push(app);
  return app;
}

const app = await fake();
const currentUser = (target: FakeApp, host: string, headers: Record<string, string> = {}) =>
  target.inject({ url: `${API}/users/current`, headers: { ...basicOf('admin'), host, ...headers } });

/** The answer is the document's 403 PERMISSION_DENIED for the operation, naming the Host. */
function expectRefused(operationId: string, answer: Pick<LightMyRequestResponse, 'statusCode' | 'headers' | 'body'>, host: string): void {
  expect(answer.statusCode, `${host}: ${answer.body}`).toBe(403);
  expectConforms(operationId, answer as LightMyRequestResponse);
  const body = JSON.parse(answer.body) as { code: string; message: string; permission?: string };
  expect(body.code).toBe('PERMISSION_DENIED');
  expect(body.permission).toBeUndefined();
  expect(body.message).toContain(JSON.stringify(host));
}

const HOSTILE = [
  'evil.example',
  'evil.example:4010',
  'localhost.evil.example',
  'localhost.evil.example:4010',
  '127.0.0.1.nip.io:4010',
  'LOCALHOST.',
  'localhost.:4010',
  '127.0.0.1.',
  'xn--lcalhost-9za.example',
  'local%68ost:4010',
  'localhost:',
  'localhost:99999',
  'localhost:4010:4010',
  'evil..example',
  '.localhost',
  '[::1',
  '[fe80::1%25eth0]:4010',
  '[evil.example]:4010',
  'local host',
  '\tlocalhost',
];

describe('the Host values the monitoring API refuses', () => {
  it('refuses a DNS-rebinding name, and every Host that is not a valid host, with 403 naming it and --allowed-host', async () => {
    for (const host of HOSTILE) expectRefused('getCurrentUser', await currentUser(app, host), host);
    const { message } = JSON.parse((await currentUser(app, 'Evil.Example:4010')).body) as { message: string };
    expect(message).toBe(
      'The API does not answer Host "Evil.Example:4010", which names no host this server answers (a guard against DNS rebinding); start the fake with --allowed-host evil.example (createFake: allowedHosts) to allow it.',
    );
    expect(JSON.parse((await currentUser(app, 'local%68ost')).body)).toMatchObject({ message: 'The Host header "local%68ost" is not a valid host, so the API does not answer it.' });
  });

  it('refuses every operation, paths no route takes and escaped spellings, before anything else, changing nothing', async () => {
    const target = await fake({ rateLimit: [{ key: 'ip', limit: 2, windowSeconds: 60, blockSeconds: 60 }] });
    const host = 'evil.example:4010';
    const eventId = '68b25f476669787472000001'; // an SNMP trap of fixtures/events.json
    await control(target, 'injectFault', { payload: { operationId: 'getCurrentUser', count: 1 } });
    const calls: [string, InjectOptions][] = [
      ['createSession', { method: 'POST', url: `${API}/users/session`, payload: { login: USERS.admin.login, password: USERS.admin.password } }],
      ['deleteSession', { method: 'DELETE', url: `${API}/users/session` }],
      ['getCurrentUser', { url: `${API}/users/current`, headers: { prefer: 'code=503' } }],
      ['getCurrentUser', { url: '/node/%61pi/users/current' }],
      ['createAuthToken', { method: 'POST', url: `${API}/users/${USERS.admin.id}/auth-token` }],
      ['revokeAuthToken', { method: 'DELETE', url: `${API}/users/${USERS.admin.id}/auth-token` }],
      ['getEventLog', { url: `${API}/event-log?limit=1` }],
      ['updateEventLogPayload', { method: 'PATCH', url: `${API}/event-log/${eventId}/payload`, payload: { text: 'rebound' } }],
      ['getLimitBlockLog', { url: `${API}/limit-block-log` }],
    ];
    const snapshot = async () => ({ ...(await control<object>(target, 'exportSnapshot')).body, takenAt: undefined });
    const before = await snapshot();
    for (const [operationId, call] of calls) {
      expectRefused(operationId, await target.inject({ ...call, headers: { ...basicOf('admin'), ...call.headers, host } }), host);
    }
    for (const url of [`${API}/no-such-path`, `${API}/users/current?x=1`]) {
      const answer = await target.inject({ method: 'PUT', url, headers: { host } });
      expect(answer.statusCode, url).toBe(403);
    }
    // Not counted by the rate limits (2 per IP), not faulted, no session, no token, no edit.
    expect(await snapshot()).toEqual(before);
    expect((await target.inject({ url: `${API}/users/current`, headers: basicOf('admin') })).statusCode).toBe(503);
    expect((await target.inject({ url: `${API}/users/current`, headers: basicOf('admin') })).statusCode).toBe(200);
    // The journal keeps the refusals like any other answer of the API.
    const journal = await control<{ status: number }[]>(target, 'listRequests', { url: '/__control/requests?status=403' });
    expect(journal.body.length).toBe(calls.length + 2);
  });
});

describe('the Host values the monitoring API answers', () => {
  it('IP addresses, localhost and *.localhost, with any port or none and in any case', async () => {
    const names = ['localhost', 'localhost:4010', 'LOCALHOST:4010', 'LocalHost', 'app.localhost:5173', 'a.b.localhost', '127.0.0.1', '127.0.0.1:4010', '10.1.2.3:4010', '192.168.1.20', '0.0.0.0:4010', '[::1]', '[::1]:4010', '[2001:DB8::1]:80', '[::ffff:127.0.0.1]:4010'];
    for (const host of names) {
      const answer = await currentUser(app, host);
      expect(answer.statusCode, host).toBe(200);
      expectConforms('getCurrentUser', answer);
    }
    expect((await app.inject({ url: `${API}/users/current`, headers: basicOf('admin') })).statusCode).toBe(200);
  });

  it('the names of --control-host (--host among them) and --allowed-host, a leading dot allowing subdomains', async () => {
    const target = await fake({ controlHosts: ['fake.test', '::1'], allowedHosts: ['ui.lan', '.corp.test', '192.0.2.7'] });
    for (const host of ['fake.test:4010', 'FAKE.TEST', 'ui.lan', 'ui.lan:8080', 'corp.test', 'fake.corp.test:4010', 'a.b.corp.test']) {
      expect((await currentUser(target, host)).statusCode, host).toBe(200);
    }
    for (const host of ['fake.test.evil.example', 'ui.lan.evil.example:4010', 'evilcorp.test', 'corp.test.evil.example', 'sub.ui.lan', 'sub.fake.test']) {
      expectRefused('getCurrentUser', await currentUser(target, host), host);
    }
  });

  it('any Host with --allowed-host *', async () => {
    const target = await fake({ allowedHosts: ['*'] });
    for (const host of ['evil.example:4010', '127.0.0.1.nip.io']) expect((await currentUser(target, host)).statusCode, host).toBe(200);
  });

  it('refuses an allowed host that is not a name, .name or *', async () => {
    for (const entry of ['fake.test:4010', '*.corp.test', 'http://fake.test', '', '.', 'a b']) {
      await expect(buildFake({ spec, docs: false, records: 20, allowedHosts: [entry] }), entry).rejects.toThrow(`Allowed host "${entry}" is not`);
    }
  });
});

describe('over HTTP', () => {
  it('a rebinding page gets 403 with the Error body; HTTP/1.0 without Host is served as before', async () => {
    const target = await fake();
    const origin = await target.listen({ port: 0, host: '127.0.0.1' });
    const rebound = await rawRequest(origin, { path: `${API}/users/current`, headers: { host: 'attacker.example', ...basicOf('admin') } });
    expectRefused('getCurrentUser', rebound, 'attacker.example');
    // An empty Host, and a name of other letters (sent as UTF-8 bytes, read as latin1 by Node).
    for (const host of ['', 'l\u043ecalhost']) {
      const head = `GET ${API}/users/current HTTP/1.1\r\nHost: ${host}\r\nAuthorization: ${basicOf('admin').authorization}\r\nConnection: close\r\n\r\n`;
      const { answer: odd } = await exchange(origin, Buffer.from(head, 'utf8'));
      expectRefused('getCurrentUser', odd!, Buffer.from(host, 'utf8').toString('latin1'));
    }
    const logIn = await rawRequest(origin, {
      method: 'POST',
      path: `${API}/users/session`,
      headers: { host: `attacker.example:${new URL(origin).port}`, origin: `http://attacker.example:${new URL(origin).port}`, 'content-type': 'application/json' },
      body: JSON.stringify({ login: USERS.admin.login, password: USERS.admin.password }),
    });
    expectRefused('createSession', logIn, `attacker.example:${new URL(origin).port}`);
    expect(logIn.headers['set-cookie']).toBeUndefined();
    const { answer } = await exchange(origin, `GET ${API}/users/current HTTP/1.0\r\nAuthorization: ${basicOf('admin').authorization}\r\n\r\n`);
    expect(answer?.statusCode).toBe(200);
    expectConforms('getCurrentUser', answer as unknown as LightMyRequestResponse);
  });
});
