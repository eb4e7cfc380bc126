// Against a target that is not loopback, the run only reads and logs sessions in and out.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runContract } from '../../src/contract/run/run-contract.js';
import { ADMIN, listeningFake, VIEWER, type ListeningFake } from './helpers/fake.js';

let fake: ListeningFake;

beforeAll(async () => {
  fake = await listeningFake();
});
afterAll(() => fake.close());
beforeEach(() => {
  fake.requests.length = 0;
  fake.app.fake.state.reset();
});

const writes = (requests: ListeningFake['requests']) => requests.filter((r) => r.method !== 'GET');
const sessionPath = /^\/node\/api\/users\/session(\?|$)/;

describe('safety against a server that is not loopback', () => {
  it('sends no PATCH/POST/DELETE but session log-in and log-out, and says the run was read-only', async () => {
    const result = await runContract({ baseUrl: fake.url, admin: ADMIN, low: VIEWER, seed: 11, isLoopback: () => false, probeLimits: false });
    expect(result.safety).toMatch(/^read-only/);
    const sent = writes(fake.requests);
    expect(sent.length).toBeGreaterThan(0);
    for (const r of sent) {
      expect(['POST', 'DELETE'], `${r.method} ${r.url}`).toContain(r.method);
      expect(r.url, `${r.method} ${r.url}`).toMatch(sessionPath);
    }
    const skipped = result.outcomes.filter((o) => o.skipped?.includes('read-only')).map((o) => `${o.operationId} ${o.check}`);
    expect(skipped).toEqual(expect.arrayContaining(['updateEventLogPayload payload-update-persists', 'createAuthToken case/token-flow']));
  });

  it('does write on loopback, which shows the test above could fail', async () => {
    await runContract({ baseUrl: fake.url, admin: ADMIN, low: VIEWER, seed: 11, groups: ['authentication', 'cases'] });
    const other = writes(fake.requests).filter((r) => !sessionPath.test(r.url));
    expect(other.map((r) => r.method)).toEqual(expect.arrayContaining(['POST', 'DELETE', 'PATCH']));
  });

  it('never creates or revokes the administrator\'s token, even with writes allowed', async () => {
    await runContract({ baseUrl: fake.url, admin: ADMIN, low: VIEWER, seed: 12, allowWrites: true });
    const adminId = fake.app.fake.state.users.byLogin('admin')?.id;
    expect(adminId).toMatch(/^[0-9a-f]{24}$/);
    const touched = fake.requests.filter((r) => r.method !== 'GET' && r.url.includes(`/users/${adminId}/auth-token`));
    expect(touched).toEqual([]);
    expect(fake.requests.some((r) => r.method === 'POST' && r.url.includes('/auth-token'))).toBe(true);
  });
});
