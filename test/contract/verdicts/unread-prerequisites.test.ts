// The payload update needs records of the event log to aim at. When the log cannot be read (it
// answered 403 to the administrator, a documented refusal), the update's checks did not run
// because of the server's answer: inconclusive, so --strict fails, never a skip that claims
// the log holds no such record.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runContract } from '../../../src/contract/run/run-contract.js';
import { statusOf } from '../../../src/contract/run/results.js';
import { json, startBreakingProxy } from '../broken/breaking-proxy.js';
import { ADMIN, listeningFake, VIEWER, type ListeningFake } from '../helpers/fake.js';

let fake: ListeningFake;
beforeAll(async () => {
  fake = await listeningFake();
});
afterAll(() => fake.close());

const payloadChecks = (result: Awaited<ReturnType<typeof runContract>>) =>
  Object.fromEntries(result.outcomes.filter((o) => ['payload-update-persists', 'mqtt-update-refused'].includes(o.check)).map((o) => [o.check, [statusOf(o), o.inconclusive ?? o.skipped ?? '']]));

describe('the payload update when the event log cannot be read', () => {
  it('is inconclusive with the reason, and --strict fails', async () => {
    const proxy = await startBreakingProxy(fake.url, {
      request: (r) => (r.method === 'GET' && r.url.pathname === '/node/api/event-log' ? json(403, { status: 403, code: 'PERMISSION_DENIED', message: 'Permission denied.' }) : r),
    });
    try {
      const result = await runContract({ baseUrl: proxy.url, admin: ADMIN, seed: 8, groups: ['sequences'], strict: true });
      expect(payloadChecks(result)).toEqual({
        'payload-update-persists': ['inconclusive', 'the event log could not be read: answered 403'],
        'mqtt-update-refused': ['inconclusive', 'the event log could not be read: answered 403'],
      });
      expect(result.violations).toBe(0);
      expect(result.exitCode).toBe(1);
    } finally {
      await proxy.close();
    }
  });

  it('a readable log gets the update judged, which shows the test above could fail', async () => {
    fake.app.fake.state.reset();
    const result = await runContract({ baseUrl: fake.url, admin: ADMIN, seed: 8, groups: ['sequences'], strict: true });
    expect(payloadChecks(result)).toEqual({ 'payload-update-persists': ['passed', ''], 'mqtt-update-refused': ['passed', ''] });
    expect(result.exitCode).toBe(0);
  });
});

describe('a contract case that needs the low-privilege user, when its record cannot be read', () => {
  const viewerBasic = `Basic ${Buffer.from(`${VIEWER.login}:${VIEWER.password}`).toString('base64')}`;
  const caseOutcomes = (result: Awaited<ReturnType<typeof runContract>>) =>
    Object.fromEntries(result.outcomes.filter((o) => o.check === 'case/token-flow').map((o) => [o.check, [statusOf(o), o.inconclusive ?? o.skipped ?? '']]));

  it('is inconclusive (the user was given; the server did not show its record), not skipped as if there were none', async () => {
    const proxy = await startBreakingProxy(fake.url, {
      request: (r) =>
        r.method === 'GET' && r.url.pathname === '/node/api/users/current' && r.headers.authorization === viewerBasic
          ? json(403, { status: 403, code: 'PERMISSION_DENIED', message: 'Permission denied.' })
          : r,
    });
    try {
      const result = await runContract({ baseUrl: proxy.url, admin: ADMIN, low: VIEWER, seed: 8, groups: ['cases'], strict: true });
      expect(caseOutcomes(result)).toEqual({ 'case/token-flow': ['inconclusive', "the low-privilege user's record (GET /node/api/users/current) could not be read"] });
      expect(result.violations).toBe(0);
      expect(result.exitCode).toBe(1);
    } finally {
      await proxy.close();
    }
  });

  it('without a low-privilege user given, it is skipped', async () => {
    const result = await runContract({ baseUrl: fake.url, admin: ADMIN, seed: 8, groups: ['cases'] });
    expect(caseOutcomes(result)).toEqual({ 'case/token-flow': ['skipped', 'no low-privilege user (--low-login/--low-password)'] });
  });
});
