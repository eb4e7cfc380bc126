import { parse as parseCookies } from 'cookie';
import { describe, expect, it } from 'vitest';
import { buildFake } from '../../src/server/build.js';
import { API, basicOf, cookieValue, spec, USERS } from './helpers.js';

describe('request logs', () => {
  it('never contain a password, token, session id, csrf value or Authorization header', async () => {
    const lines: string[] = [];
    const app = await buildFake({ spec, logger: { level: 'trace', stream: { write: (line) => void lines.push(line) } } });
    const auth = basicOf('admin').authorization;
    const secrets = [auth, auth.slice('Basic '.length), USERS.admin.password, USERS.viewer.password, 'wrong-password-x'];

    const login = await app.inject({ method: 'POST', url: `${API}/users/session`, payload: { login: 'viewer', password: USERS.viewer.password } });
    const sid = cookieValue(login, 'sid');
    const csrf = cookieValue(login, 'csrf');
    secrets.push(sid, csrf);
    await app.inject({ method: 'POST', url: `${API}/users/session`, payload: { login: 'viewer', password: 'wrong-password-x' } });
    await app.inject({ method: 'POST', url: `${API}/users/session`, headers: { 'content-type': 'application/json' }, payload: `{"password":"wrong-password-x"` });
    await app.inject({ url: `${API}/users/current`, cookies: { sid }, headers: { 'x-csrf-token': csrf } });
    const created = await app.inject({ method: 'POST', url: `${API}/users/${USERS.viewer.id}/auth-token`, headers: { authorization: auth } });
    const token = JSON.parse(created.body) as string;
    secrets.push(token);
    await app.inject({ url: `${API}/users/current?api-token=${token}` });
    await app.inject({ url: `${API}/users/current?auth-token=${token}&x=1` });
    await app.inject({ url: `${API}/nowhere?api-token=${token}` });
    await app.close();

    const log = lines.join('');
    // The log does hold the requests, so the absence of secrets below means something.
    expect(log).toContain(`"url":"${API}/users/current?api-token=[redacted]"`);
    expect(log).toContain(`"url":"${API}/users/current?auth-token=[redacted]&x=1"`);
    expect(log).toContain('"statusCode":401');
    for (const secret of secrets) expect(log).not.toContain(secret);
    expect(log.toLowerCase()).not.toContain('authorization');
    expect(log.toLowerCase()).not.toContain('cookie');
  });
});

describe('the line of an answered request', () => {
  it('is one JSON object a line with pino’s fields, whatever the URL holds', async () => {
    const lines: string[] = [];
    const app = await buildFake({ spec, logger: { level: 'info', stream: { write: (line) => void lines.push(line) } } });
    await app.inject({ url: `${API}/users/current`, headers: basicOf('admin') });
    // A backslash, quotes and a control character: the line stays one JSON object.
    await app.inject({ url: `${API}/nowhere?x="\\%0A%22\u0001` });
    await app.close();
    const requestLines = lines.filter((l) => l.includes('request completed'));
    expect(requestLines).toHaveLength(2);
    for (const line of requestLines) {
      expect(line.endsWith('\n')).toBe(true);
      expect(line.slice(0, -1)).not.toContain('\n');
    }
    const [ok, odd] = requestLines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(ok).toMatchObject({
      level: 30,
      pid: process.pid,
      req: { method: 'GET', url: `${API}/users/current`, remoteAddress: '127.0.0.1' },
      res: { statusCode: 200 },
      user: 'admin',
      msg: 'request completed',
    });
    expect(Object.keys(ok!)).toEqual(['level', 'time', 'pid', 'hostname', 'reqId', 'req', 'res', 'responseTime', 'user', 'msg']);
    expect(typeof ok!.time).toBe('number');
    expect(typeof ok!.responseTime).toBe('number');
    expect(odd).toMatchObject({ res: { statusCode: 404 } });
    expect((odd!.req as { url: string }).url).toMatch(/^\/node\/api\/nowhere\?x=.*\\/);
    expect(odd).not.toHaveProperty('user');
  });
});

describe('what a handler logs by hand', () => {
  it('has every secret name censored: at its top, in headers, query, body and cookies, at any level', async () => {
    const lines: string[] = [];
    const app = await buildFake({
      spec,
      logger: { level: 'trace', stream: { write: (line) => void lines.push(line) } },
      handlers: {
        createSession: (request, reply) => {
          request.log.info({ headers: request.headers, body: request.body, query: request.query }, 'what came in');
          request.log.debug({ cookies: parseCookies(request.headers.cookie ?? ''), password: 'x-top-secret-1' }, 'by name');
          void reply.code(200);
          return { token: 'x-issued-token-1' };
        },
      },
    });
    const auth = basicOf('admin').authorization;
    await app.inject({
      method: 'POST',
      url: `${API}/users/session?api-token=x-query-token-1`,
      headers: { authorization: auth, cookie: 'sid=x-cookie-sid-1' },
      payload: { login: 'viewer', password: 'x-body-password-1' },
    });
    await app.close();
    const log = lines.join('');
    const [cameIn] = lines.filter((l) => l.includes('what came in')).map((l) => JSON.parse(l) as { headers: Record<string, string>; body: Record<string, string>; query: Record<string, string> });
    // The fields are there, their values censored.
    expect(cameIn?.headers.authorization).toBe('[redacted]');
    expect(cameIn?.headers.cookie).toBe('[redacted]');
    expect(cameIn?.body).toEqual({ login: 'viewer', password: '[redacted]' });
    expect(cameIn?.query['api-token']).toBe('[redacted]');
    const [byName] = lines.filter((l) => l.includes('"by name"')).map((l) => JSON.parse(l) as { cookies: Record<string, string>; password: string });
    expect(byName).toMatchObject({ cookies: { sid: '[redacted]' }, password: '[redacted]' });
    for (const secret of [auth, 'x-cookie-sid-1', 'x-query-token-1', 'x-body-password-1', 'x-top-secret-1']) expect(log).not.toContain(secret);
  });
});
