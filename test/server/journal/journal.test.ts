import { afterEach, describe, expect, it } from 'vitest';
import { createFake, type Fake } from '../../../src/fake/create-fake.js';
import { buildFake, type FakeApp } from '../../../src/server/build.js';
import { KEPT_TEXT_CHARS } from '../../../src/server/answer-hook.js';
import { createManualClock } from '../../../src/shared/clock.js';
import { API, basicOf, cookieValue, expectConforms, expectError, spec, USERS } from '../helpers.js';
import { checkControlCalls, control } from '../control/helpers.js';
import { listJournal } from './helpers.js';

let app: FakeApp | undefined;
let fake: Fake | undefined;
afterEach(async () => {
  await app?.close();
  await fake?.close();
  app = undefined;
  fake = undefined;
});

const requests = (query = '') => listJournal(app!, query);

describe('the request journal (GET /__control/requests)', () => {
  it('keeps each answer of the monitoring API, newest first: who, how, status, duration and the problems of a refused request', async () => {
    const clock = createManualClock(1_756_500_000_000);
    app = await buildFake({ spec, docs: false, records: 20, clock });
    const admin = await app.inject({ url: `${API}/users/current`, headers: { ...basicOf('admin'), origin: 'http://localhost:5173' } });
    expectConforms('getCurrentUser', admin);
    clock.advance(1000);
    const refused = await app.inject({ url: `${API}/event-log?limit=abc`, headers: basicOf('viewer') });
    const error = expectError(refused, 400, 'INVALID_PARAMETER');
    clock.advance(1000);
    expectError(await app.inject({ url: `${API}/users/current` }), 401, 'UNAUTHENTICATED');
    expectError(await app.inject({ url: `${API}/nothing-here` }), 404, 'ROUTE_NOT_FOUND');

    const [missing, anonymous, badLimit, first, ...rest] = await requests();
    expect(rest).toEqual([]);
    expect(first).toEqual({
      id: 1,
      time: 1_756_500_000_000,
      method: 'GET',
      url: `${API}/users/current`,
      operationId: 'getCurrentUser',
      auth: { method: 'basic', userId: USERS.admin.id, login: 'admin' },
      origin: 'http://localhost:5173',
      status: 200,
      durationMs: expect.any(Number),
      responseBody: JSON.parse(admin.body),
    });
    expect(badLimit).toMatchObject({ id: 2, time: 1_756_500_001_000, url: `${API}/event-log?limit=abc`, operationId: 'getEventLog', status: 400, auth: { login: 'viewer' } });
    // The Error body the page got, so its details name the parameter and the problem.
    expect(badLimit!.error).toEqual(error);
    expect(badLimit!.error?.details).toEqual([expect.objectContaining({ location: 'query', name: 'limit' })]);
    expect(anonymous).toMatchObject({ id: 3, operationId: 'getCurrentUser', status: 401, error: { code: 'UNAUTHENTICATED' } });
    expect(anonymous).not.toHaveProperty('auth');
    expect(missing).toMatchObject({ id: 4, url: `${API}/nothing-here`, status: 404, error: { code: 'ROUTE_NOT_FOUND' } });
    expect(missing).not.toHaveProperty('operationId');
  });

  it('keeps no request of the control API, the docs or other paths, and names session and token callers', async () => {
    app = await buildFake({ spec, records: 20 });
    await control(app, 'getConfig');
    await app.inject({ url: '/docs' });
    await app.inject({ url: '/elsewhere' });
    const login = await app.inject({ method: 'POST', url: `${API}/users/session`, payload: { login: 'operator', password: USERS.operator.password } });
    const sid = cookieValue(login, 'sid');
    await app.inject({ url: `${API}/users/current`, cookies: { sid } });
    // The log-in and the session call only.
    expect(await requests()).toHaveLength(2);
    const token = JSON.parse((await app.inject({ method: 'POST', url: `${API}/users/${USERS.admin.id}/auth-token`, headers: basicOf('admin') })).body) as string;
    await app.inject({ url: `${API}/users/current?auth-token=${token}` });
    const [byToken, , bySession, loggedIn] = await requests();
    expect(loggedIn).toMatchObject({ operationId: 'createSession', status: 200 });
    expect(bySession?.auth).toMatchObject({ method: 'session', login: 'operator' });
    expect(byToken?.auth).toMatchObject({ method: 'token', login: 'admin' });
  });

  it('masks secrets as the logs do, in every spelling of the parameter, and keeps no header, cookie or request body', async () => {
    app = await buildFake({ spec, docs: false, records: 20 });
    const login = await app.inject({ method: 'POST', url: `${API}/users/session`, payload: { login: 'admin', password: USERS.admin.password } });
    const sid = cookieValue(login, 'sid');
    const token = JSON.parse((await app.inject({ method: 'POST', url: `${API}/users/${USERS.admin.id}/auth-token`, headers: basicOf('admin') })).body) as string;
    const spellings = [`api-token=${token}`, `auth-token=${token}`, `API-TOKEN=${token}`, `api%2Dtoken=${token}`, `api-token=${encodeURIComponent(token)}&limit=abc`, `password=${USERS.admin.password}`, `sid=${sid}`];
    for (const query of spellings) await app.inject({ url: `${API}/event-log?${query}`, cookies: { sid }, headers: { 'x-csrf-token': 'x', ...basicOf('admin') } });
    const text = JSON.stringify(await requests());
    for (const secret of [token, sid, USERS.admin.password, basicOf('admin').authorization.split(' ')[1]!]) expect(text).not.toContain(secret);
    const urls = (await requests()).slice(0, spellings.length).map((r) => r.url).reverse();
    expect(urls).toEqual([
      `${API}/event-log?api-token=[redacted]`,
      `${API}/event-log?auth-token=[redacted]`,
      `${API}/event-log?API-TOKEN=[redacted]`,
      `${API}/event-log?api%2Dtoken=[redacted]`,
      `${API}/event-log?api-token=[redacted]&limit=abc`,
      `${API}/event-log?password=[redacted]`,
      `${API}/event-log?sid=[redacted]`,
    ]);
  });

  it('filters by operationId, status or class, time and count; refuses bad filters with 400', async () => {
    const clock = createManualClock(1_756_500_000_000);
    app = await buildFake({ spec, docs: false, records: 20, clock });
    for (let i = 0; i < 3; i++) {
      await app.inject({ url: `${API}/users/current`, headers: basicOf('admin') });
      await app.inject({ url: `${API}/event-log?limit=x${i}`, headers: basicOf('admin') });
      clock.advance(1000);
    }
    expect((await requests('?operationId=getEventLog')).map((r) => r.url)).toEqual([2, 1, 0].map((i) => `${API}/event-log?limit=x${i}`));
    expect((await requests('?status=400')).every((r) => r.status === 400)).toBe(true);
    expect(await requests('?status=4xx')).toEqual(await requests('?status=400'));
    expect(await requests('?status=5xx')).toEqual([]);
    expect((await requests('?status=2xx&limit=2')).map((r) => r.id)).toEqual([5, 3]);
    expect((await requests('?since=1756500001000')).map((r) => r.id)).toEqual([6, 5, 4, 3]);
    for (const query of ['?status=4x', '?status=600', '?since=yesterday', '?limit=-1', '?operationId=']) {
      const { status, body } = await control<{ code: string }>(app, 'listRequests', { url: `/__control/requests${query}` });
      expect([query, status, body.code]).toEqual([query, 400, 'INVALID_PARAMETER']);
    }
  });

  it('is bounded: keeps the last N, ids go on after a clear, and 0 keeps nothing', async () => {
    app = await buildFake({ spec, docs: false, records: 20, journalSize: 3 });
    for (let i = 0; i < 5; i++) await app.inject({ url: `${API}/users/current?n=${i}`, headers: basicOf('admin') });
    expect((await requests()).map((r) => r.id)).toEqual([5, 4, 3]);
    expect((await control(app, 'clearRequests')).body).toEqual({ cleared: 3 });
    expect(await requests()).toEqual([]);
    await app.inject({ url: `${API}/users/current`, headers: basicOf('admin') });
    expect((await requests()).map((r) => r.id)).toEqual([6]);
    await app.close();

    app = await buildFake({ spec, docs: false, records: 20, journalSize: 0 });
    await app.inject({ url: `${API}/users/current`, headers: basicOf('admin') });
    expect(await requests()).toEqual([]);
    expect((await control(app, 'clearRequests')).body).toEqual({ cleared: 0 });
  });

  it('keeps the head of a very long URL or Origin only, so a journal of long requests stays bounded', async () => {
    app = await buildFake({ spec, docs: false, records: 20 });
    const long = `${API}/users/current?pad=${'x'.repeat(10_000)}`;
    await app.inject({ url: long, headers: { ...basicOf('admin'), origin: `http://localhost:${'9'.repeat(5000)}` } });
    const [kept] = await requests();
    expect(kept!.url).toBe(`${long.slice(0, KEPT_TEXT_CHARS)}…`);
    expect(kept!.origin).toHaveLength(KEPT_TEXT_CHARS + 1);
    expect(kept!.status).toBe(200);
  });

  // The Origin header only: a URL reaches the journal percent-encoded (ASCII), as inject and HTTP send it.
  it('cuts the head of a long Origin before an emoji that would not fit whole, never inside it', async () => {
    app = await buildFake({ spec, docs: false, records: 20 });
    // The text runs up to one code unit before the cut, then emoji: the count falls between the two halves of one.
    const start = 'http://localhost:';
    const origin = `${start}${'x'.repeat(KEPT_TEXT_CHARS - 1 - start.length)}${'😀'.repeat(100)}`;
    expect(origin.charCodeAt(KEPT_TEXT_CHARS - 1), 'the count falls inside a surrogate pair').toBe('😀'.charCodeAt(0));
    expectConforms('getCurrentUser', await app.inject({ url: `${API}/users/current`, headers: { ...basicOf('admin'), origin } }));
    const [kept] = await requests();
    const head = kept!.origin!;
    expect(head).not.toContain('\uFFFD');
    expect(head.endsWith('…')).toBe(true);
    expect(origin.startsWith(head.slice(0, -1))).toBe(true);
    expect(head).toHaveLength(KEPT_TEXT_CHARS); // the text before the emoji, and "…"
  });

  it("times each answer from the request's arrival, the added latency included", async () => {
    app = await buildFake({ spec, docs: false, records: 20, latencyMs: 60 });
    await app.inject({ url: `${API}/users/current`, headers: basicOf('admin') });
    const [timed] = await requests();
    expect(timed!.durationMs).toBeGreaterThanOrEqual(55);
  });
});

describe('fake.requests() and fake.clearRequests()', () => {
  it('read and clear the journal through the control API, with its filters', async () => {
    fake = await createFake({ spec, docs: false, records: 20 });
    checkControlCalls(fake.app);
    await fake.inject({ url: `${API}/users/current`, headers: basicOf('viewer') });
    await fake.inject({ url: `${API}/event-log?limit=abc`, headers: basicOf('viewer') });
    const refused = await fake.requests({ status: '4xx' });
    expect(refused.map((r) => [r.operationId, r.status, r.error?.details?.[0]?.name])).toEqual([['getEventLog', 400, 'limit']]);
    expect((await fake.requests({ operationId: 'getCurrentUser', limit: 1 })).map((r) => r.status)).toEqual([200]);
    expect(await fake.requests({ status: 500 })).toEqual([]);
    expect(await fake.clearRequests()).toBe(2);
    expect(await fake.requests()).toEqual([]);
  });
});
