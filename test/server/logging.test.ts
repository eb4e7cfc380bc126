import { describe, expect, it } from 'vitest';
import { maskUrl } from '../../src/server/logging.js';
import { buildFake } from '../../src/server/build.js';
import { API, basicOf, cookieValue, spec, USERS } from './helpers.js';

describe('maskUrl', () => {
  it('replaces the values of secret query parameters only', () => {
    expect(maskUrl('/a?api-token=abc&limit=5&auth-token=def')).toBe('/a?api-token=[redacted]&limit=5&auth-token=[redacted]');
    expect(maskUrl('/a?API%2DTOKEN=abc&password=pw')).toBe('/a?API%2DTOKEN=[redacted]&password=[redacted]');
    expect(maskUrl('/a?filter=%7B%7D')).toBe('/a?filter=%7B%7D');
    expect(maskUrl('/a')).toBe('/a');
  });
});

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
    // Written to the microsecond, as a plain decimal.
    for (const line of requestLines) expect(line).toMatch(/"responseTime":\d+\.\d{3}[,}]/);
    expect(odd).toMatchObject({ res: { statusCode: 404 } });
    expect((odd!.req as { url: string }).url).toMatch(/^\/node\/api\/nowhere\?x=.*\\/);
    expect(odd).not.toHaveProperty('user');
  });
});
