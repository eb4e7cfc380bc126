import { afterEach, describe, expect, it } from 'vitest';
import { createManualClock } from '../../src/shared/clock.js';
import { buildFake, type FakeApp } from '../../src/server/build.js';
import { fakeDefaults, type FakeOptions } from '../../src/server/options.js';
import { control } from './control/helpers.js';
import { API, basicOf, cookieValue, expectConforms, spec, USERS, type UserName } from './helpers.js';

const session = `${API}/users/session`;
const current = `${API}/users/current`;
let app: FakeApp;
afterEach(() => app?.close());

async function fake(options: FakeOptions = {}) {
  app = await buildFake({ spec, ...options });
  return app;
}

async function login(user: UserName) {
  const response = await app.inject({ method: 'POST', url: session, payload: { login: USERS[user].login, password: USERS[user].password } });
  expect(response.statusCode).toBe(200);
  expectConforms('createSession', response);
  return { response, sid: cookieValue(response, 'sid'), csrf: cookieValue(response, 'csrf') };
}

const whoAmI = async (sid: string) => app.inject({ url: current, cookies: { sid } });

describe('logging in and out', () => {
  it('answers the session id as a JSON string and sets sid (HttpOnly) and csrf (readable) cookies', async () => {
    await fake();
    const { response, sid, csrf } = await login('operator');
    expect(JSON.parse(response.body)).toBe(sid);
    expect(sid).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const setCookie = response.headers['set-cookie'] as string[];
    expect(setCookie).toContain(`sid=${sid}; Path=/; HttpOnly; SameSite=Lax`);
    expect(setCookie).toContain(`csrf=${csrf}; Path=/; SameSite=Lax`);
    const me = await whoAmI(sid);
    expect(JSON.parse(me.body)).toMatchObject({ id: USERS.operator.id, login: 'operator' });
  });

  it('refuses a wrong password or an unknown login with 401 and sets no cookie', async () => {
    await fake();
    for (const payload of [{ login: 'admin', password: 'wrong' }, { login: 'ghost', password: 'admin-password' }]) {
      const response = await app.inject({ method: 'POST', url: session, payload });
      expect(response.statusCode).toBe(401);
      expectConforms('createSession', response);
      expect(JSON.parse(response.body)).toEqual({ status: 401, code: 'UNAUTHENTICATED', message: 'The login or password is wrong.' });
      expect(response.headers['set-cookie']).toBeUndefined();
    }
  });

  it('gives every login a new session id', async () => {
    await fake();
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++) ids.add((await login('viewer')).sid);
    expect(ids.size).toBe(5);
  });

  it('logs out with 204, clears both cookies, and the cookie then gets 401', async () => {
    await fake();
    const { sid } = await login('viewer');
    const out = await app.inject({ method: 'DELETE', url: session, cookies: { sid } });
    expect(out.statusCode).toBe(204);
    expectConforms('deleteSession', out);
    const cleared = out.cookies.filter((c) => c.maxAge === 0 && c.value === '').map((c) => c.name);
    expect(cleared.sort()).toEqual(['csrf', 'sid']);
    expect((await whoAmI(sid)).statusCode).toBe(401);
    const again = await app.inject({ method: 'DELETE', url: session, cookies: { sid } });
    expect(again.statusCode).toBe(401);
  });

  it('ends only the session of the cookie sent', async () => {
    await fake();
    const first = await login('admin');
    const second = await login('admin');
    await app.inject({ method: 'DELETE', url: session, cookies: { sid: first.sid } });
    expect((await whoAmI(first.sid)).statusCode).toBe(401);
    expect((await whoAmI(second.sid)).statusCode).toBe(200);
  });
});

describe('CSRF', () => {
  it('is not required by default, and a client that sends x-csrf-token keeps working', async () => {
    await fake();
    const a = await login('viewer');
    expect((await app.inject({ url: current, cookies: { sid: a.sid }, headers: { 'x-csrf-token': a.csrf } })).statusCode).toBe(200);
    expect((await app.inject({ method: 'DELETE', url: session, cookies: { sid: a.sid } })).statusCode).toBe(204);
    const b = await login('viewer');
    expect((await app.inject({ method: 'DELETE', url: session, cookies: { sid: b.sid }, headers: { 'x-csrf-token': b.csrf } })).statusCode).toBe(204);
  });

  it('with requireCsrf, a write made with the cookie needs the matching x-csrf-token', async () => {
    await fake({ requireCsrf: true });
    const { sid, csrf } = await login('viewer');
    for (const headers of [{}, { 'x-csrf-token': 'not-the-token' }, { 'x-csrf-token': (await login('viewer')).csrf }]) {
      const refused = await app.inject({ method: 'DELETE', url: session, cookies: { sid }, headers });
      expect(refused.statusCode).toBe(403);
      expect(JSON.parse(refused.body).code).toBe('CSRF_TOKEN_INVALID');
      expectConforms('deleteSession', refused);
    }
    // Reads need no token.
    expect((await whoAmI(sid)).statusCode).toBe(200);
    const ok = await app.inject({ method: 'DELETE', url: session, cookies: { sid }, headers: { 'x-csrf-token': csrf } });
    expect(ok.statusCode).toBe(204);
  });

  it('with requireCsrf, Basic writes need no token', async () => {
    await fake({ requireCsrf: true });
    const response = await app.inject({ method: 'POST', url: `${API}/users/${USERS.viewer.id}/auth-token`, headers: basicOf('admin') });
    expect(response.statusCode).toBe(200);
  });
});

describe('expiry and the bound of the store (manual clock)', () => {
  it('a session idle for idleSeconds is gone; use keeps it alive', async () => {
    const clock = createManualClock();
    await fake({ clock, sessions: { idleSeconds: 60 } });
    const kept = await login('viewer');
    const idle = await login('operator');
    clock.advance(59_000);
    expect((await whoAmI(kept.sid)).statusCode).toBe(200);
    clock.advance(1_000);
    expect((await whoAmI(idle.sid)).statusCode).toBe(401);
    expect((await whoAmI(kept.sid)).statusCode).toBe(200);
    clock.advance(60_000);
    const expired = await whoAmI(kept.sid);
    expect(expired.statusCode).toBe(401);
    expectConforms('getCurrentUser', expired);
  });

  it('holds at most sessions.max, evicting the least recently used', async () => {
    const clock = createManualClock();
    await fake({ clock, sessions: { max: 2 } });
    const a = await login('admin');
    clock.advance(1);
    const b = await login('operator');
    clock.advance(1);
    expect((await whoAmI(a.sid)).statusCode).toBe(200); // a is now more recent than b
    clock.advance(1);
    const c = await login('viewer');
    expect((await whoAmI(b.sid)).statusCode).toBe(401);
    expect((await whoAmI(a.sid)).statusCode).toBe(200);
    expect((await whoAmI(c.sid)).statusCode).toBe(200);
    expect(app.fake.state.sessions.size).toBe(2);
  });

  it('one user logging in more times than the store holds ends only its own least recently used sessions', async () => {
    const clock = createManualClock();
    // A store a tenth of the default, so that a thousand log-ins overfill it; the per-user bound is the default.
    await fake({ clock, sessions: { max: fakeDefaults.sessions.max / 10 } });
    const others = [await login('admin'), await login('operator')];
    const first = await login('viewer');
    let last = first;
    for (let i = 1; i < 1_200; i++) {
      // Within the default rate limits.
      if (i % 1_000 === 0) clock.advance(10_000);
      last = await login('viewer');
    }
    for (const other of others) {
      const answer = await whoAmI(other.sid);
      expectConforms('getCurrentUser', answer);
      expect(answer.statusCode).toBe(200);
    }
    expect((await whoAmI(last.sid)).statusCode).toBe(200);
    const gone = await whoAmI(first.sid);
    expectConforms('getCurrentUser', gone);
    expect(gone.statusCode).toBe(401);
    const listed = await control<{ login: string }[]>(app, 'listSessions');
    const viewers = listed.body.filter((s) => s.login === 'viewer');
    expect(viewers).toHaveLength(fakeDefaults.sessions.maxPerUser);
  });

  it('many logins never hold more than max sessions', async () => {
    // No rate limits: 120 log-ins of one login in a moment would trip the login rule of any preset.
    await fake({ sessions: { max: 50 }, rateLimit: [] });
    for (let i = 0; i < 120; i++) await login('viewer');
    expect(app.fake.state.sessions.size).toBe(50);
  });
});
