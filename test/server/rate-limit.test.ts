import { describe, expect, it } from 'vitest';
import { createManualClock } from '../../src/shared/clock.js';
import { buildFake } from '../../src/server/build.js';
import { controlApiPath, loadSpec, rateLimitPresets } from '../../src/spec/index.js';
import { API, basicOf, expectConforms, spec } from './helpers.js';

const START = 1_800_000_000_000;

async function blockLog(app: Awaited<ReturnType<typeof buildFake>>, query: string) {
  // From another address, so the caller's own blocks do not hide the log.
  const response = await app.inject({ url: `${API}/limit-block-log${query}`, headers: basicOf('admin'), remoteAddress: '192.0.2.200' });
  expectConforms('getLimitBlockLog', response);
  expect(response.statusCode, response.body).toBe(200);
  return JSON.parse(response.body) as Record<string, unknown>[];
}

describe('rate limits (spec section 8)', () => {
  it('blocks a login over its limit with 429 and Retry-After, logs one block, and serves again after the ttl', async () => {
    const clock = createManualClock(START);
    const app = await buildFake({ spec, clock, rateLimit: [{ key: 'login', limit: 3, windowSeconds: 10, blockSeconds: 60 }] });
    const current = () => app.inject({ url: `${API}/users/current`, headers: basicOf('viewer') });
    for (let i = 0; i < 3; i++) expect((await current()).statusCode).toBe(200);
    for (let i = 0; i < 2; i++) {
      const blocked = await current();
      expectConforms('getCurrentUser', blocked);
      expect(blocked.statusCode).toBe(429);
      expect(JSON.parse(blocked.body).code).toBe('RATE_LIMITED');
      expect(blocked.headers['retry-after']).toBe('60');
    }
    // Other users are not affected.
    expect((await app.inject({ url: `${API}/users/current`, headers: basicOf('operator') })).statusCode).toBe(200);

    const logged = await blockLog(app, `?from=${START}`);
    expect(logged).toEqual([{ login: 'viewer', timestamp: START, ttl: 60 }]);

    clock.advance(59_000);
    expect((await current()).headers['retry-after']).toBe('1');
    clock.advance(1_001);
    expect((await current()).statusCode).toBe(200);
    await app.close();
  });

  it('the strict preset blocks an IP sending anonymous requests, recording the ip and a query-free uri', async () => {
    const clock = createManualClock(START);
    const app = await buildFake({ spec, clock, rateLimit: 'strict' });
    // The preset's numbers come from the control API document.
    const ipLimit = rateLimitPresets(await loadSpec(controlApiPath)).strict.find((r) => r.key === 'ip')?.limit ?? Infinity;
    const statuses: number[] = [];
    for (let i = 0; i < ipLimit + 10; i++) {
      const response = await app.inject({ url: `${API}/event-log?api-token=forged-${i}`, remoteAddress: '198.51.100.7' });
      expectConforms('getEventLog', response);
      statuses.push(response.statusCode);
    }
    expect(statuses.slice(0, ipLimit).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(ipLimit)).toEqual(Array(10).fill(429));
    const logged = await blockLog(app, `?from=${START}&ip=true`);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ ip: '198.51.100.7', timestamp: START });
    expect(logged[0]!.ttl).toBeGreaterThan(0);
    expect(JSON.stringify(await blockLog(app, `?from=${START}`))).not.toContain('forged');
    await app.close();
  });

  it('counts a URI however its path is percent-escaped, from any address', async () => {
    const clock = createManualClock(START);
    const app = await buildFake({ spec, clock, rateLimit: [{ key: 'uri', limit: 4, windowSeconds: 10, blockSeconds: 60 }] });
    const spellings = [`${API}/users/current`, `${API}/users/%63urrent`, `${API}/users/curren%74`, '/%6Eode/api/users/current', `${API}/%75sers/current?x=1`];
    const statuses: number[] = [];
    for (const [i, url] of spellings.entries()) {
      const response = await app.inject({ url, headers: basicOf('viewer'), remoteAddress: `198.51.100.${i + 1}` });
      expectConforms('getCurrentUser', response);
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
    expect(await blockLog(app, `?from=${START}`)).toEqual([{ uri: `${API}/users/current`, timestamp: START, ttl: 60 }]);
    await app.close();
  });

  it('counts failed session log-ins by the login in the body', async () => {
    const app = await buildFake({ spec, clock: createManualClock(START), rateLimit: [{ key: 'login', limit: 2, windowSeconds: 10, blockSeconds: 30 }] });
    const attempt = () =>
      app.inject({ method: 'POST', url: `${API}/users/session`, payload: { login: 'operator', password: 'guess' } });
    expect((await attempt()).statusCode).toBe(401);
    expect((await attempt()).statusCode).toBe(401);
    const blocked = await attempt();
    expectConforms('createSession', blocked);
    expect(blocked.statusCode).toBe(429);
    expect(await blockLog(app, `?from=${START}`)).toEqual([{ login: 'operator', timestamp: START, ttl: 30 }]);
    await app.close();
  });

  it('counts Basic log-ins by login whether or not the password is right', async () => {
    const app = await buildFake({ spec, clock: createManualClock(START), rateLimit: [{ key: 'login', limit: 2, windowSeconds: 10, blockSeconds: 30 }] });
    const wrong = { authorization: `Basic ${Buffer.from('operator:guess').toString('base64')}` };
    expect((await app.inject({ url: `${API}/users/current`, headers: wrong })).statusCode).toBe(401);
    expect((await app.inject({ url: `${API}/users/current`, headers: wrong })).statusCode).toBe(401);
    // The right password is refused too now: the login is blocked.
    expect((await app.inject({ url: `${API}/users/current`, headers: basicOf('operator') })).statusCode).toBe(429);
    await app.close();
  });

  it('counts a session caller by user id, not by login', async () => {
    const rules = [
      { key: 'login' as const, limit: 1, windowSeconds: 10, blockSeconds: 30 },
      { key: 'user' as const, limit: 3, windowSeconds: 10, blockSeconds: 30 },
    ];
    const app = await buildFake({ spec, clock: createManualClock(START), rateLimit: rules });
    const login = await app.inject({ method: 'POST', url: `${API}/users/session`, payload: { login: 'viewer', password: 'viewer-password' } });
    expect(login.statusCode).toBe(200);
    const sid = login.cookies.find((c) => c.name === 'sid')!.value;
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await app.inject({ url: `${API}/users/current`, cookies: { sid } })).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429]);
    await app.close();
  });
});
