import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock } from '../../../src/shared/clock.js';
import { buildFake, type FakeApp } from '../../../src/server/build.js';
import type { Cleared, SessionSummary, StateSummary } from '../../../src/spec/control-types.js';
import { API, cookieValue, spec, USERS, type UserName } from '../helpers.js';
import { control } from './helpers.js';

const clock = createManualClock(1_756_500_000_000);
let app: FakeApp;
beforeAll(async () => {
  app = await buildFake({ spec, docs: false, records: 20, clock });
});
afterAll(() => app.close());

async function login(user: UserName) {
  const response = await app.inject({ method: 'POST', url: `${API}/users/session`, payload: { login: USERS[user].login, password: USERS[user].password } });
  return cookieValue(response, 'sid');
}
const whoAmI = (sid: string) => app.inject({ url: `${API}/users/current`, cookies: { sid } });

describe('sessions through the control API', () => {
  it('lists open sessions oldest first with masked ids only, and ends them all or per user', async () => {
    const admin = await login('admin');
    clock.advance(1000);
    const viewer = await login('viewer');
    clock.advance(1000);
    await whoAmI(admin);
    const { response, body } = await control<SessionSummary[]>(app, 'listSessions');
    expect(response.body).not.toContain(admin);
    expect(response.body).not.toContain(viewer);
    expect(body).toEqual([
      { maskedId: `${viewer.slice(0, 8)}…`, userId: USERS.viewer.id, login: 'viewer', createdAt: 1_756_500_001_000, lastUsedAt: 1_756_500_001_000, expiresAt: 1_756_500_001_000 + 1_800_000 },
      { maskedId: `${admin.slice(0, 8)}…`, userId: USERS.admin.id, login: 'admin', createdAt: 1_756_500_000_000, lastUsedAt: 1_756_500_002_000, expiresAt: 1_756_500_002_000 + 1_800_000 },
    ]);

    const one = await control<Cleared>(app, 'clearSessions', { url: `/__control/sessions?userId=${USERS.viewer.id}` });
    expect(one.body).toEqual({ cleared: 1 });
    expect(JSON.parse((await whoAmI(viewer)).body)).toMatchObject({ status: 401, code: 'UNAUTHENTICATED' });
    expect((await whoAmI(admin)).statusCode).toBe(200);

    await login('operator');
    expect((await control<Cleared>(app, 'clearSessions')).body).toEqual({ cleared: 2 });
    expect((await whoAmI(admin)).statusCode).toBe(401);
    expect((await control<SessionSummary[]>(app, 'listSessions')).body).toEqual([]);
    const bad = await control(app, 'clearSessions', { url: '/__control/sessions?userId=42' });
    expect(bad.body).toMatchObject({ status: 400, code: 'INVALID_PARAMETER' });
  });

  it('resetState ends every session and puts the seed tokens back', async () => {
    const sid = await login('admin');
    await app.inject({ method: 'POST', url: `${API}/users/${USERS.viewer.id}/auth-token`, headers: { authorization: `Basic ${Buffer.from('admin:admin-password').toString('base64')}` } });
    const { body } = await control<StateSummary>(app, 'resetState');
    expect(body).toMatchObject({ users: 3, tokens: 0, sessions: 0, faults: 0 });
    expect((await whoAmI(sid)).statusCode).toBe(401);
  });
});
