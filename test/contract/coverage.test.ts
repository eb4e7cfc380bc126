// The coverage of a run: what it exercised of the document, what did not run and why, and
// --min-coverage failing a run that saw too few of the documented statuses.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runContract } from '../../src/contract/run/run-contract.js';
import type { RunResult } from '../../src/contract/run/results.js';
import { ADMIN, listeningFake, VIEWER, type ListeningFake } from './helpers/fake.js';

let fake: ListeningFake;
beforeAll(async () => {
  fake = await listeningFake();
});
afterAll(() => fake.close());
beforeEach(() => fake.app.fake.state.reset());

const of = (result: RunResult, operationId: string) => result.coverage.operations.find((o) => o.operationId === operationId);

describe('coverage of a whole run against the fake', () => {
  let result: RunResult;
  beforeAll(async () => {
    result = await runContract({ baseUrl: fake.url, admin: ADMIN, low: VIEWER, seed: 1 });
  });

  it('lists every operation with its requests, and totals', () => {
    expect(result.coverage.operations.map((o) => o.operationId)).toEqual([
      'createAuthToken', 'revokeAuthToken', 'getCurrentUser', 'createSession', 'deleteSession', 'getEventLog', 'updateEventLogPayload', 'getLimitBlockLog',
    ]);
    const requests = result.coverage.operations.reduce((n, o) => n + o.requests, 0);
    expect(requests).toBe(result.requests);
    expect(result.coverage.totals.operations).toEqual({ covered: 8, of: 8 });
    expect(result.coverage.totals.sections).toEqual({ covered: 7, of: 7 });
    const { covered, of: all, percent } = result.coverage.totals.statuses;
    expect(all).toBe(result.coverage.operations.reduce((n, o) => n + o.statuses.length, 0));
    expect(percent).toBe(Math.round((covered / all) * 1000) / 10);
    expect(result.coverage.belowMinimum).toBe(false);
  });

  it('says which documented statuses were seen: the block (429) only with --probe-limits', () => {
    const eventLog = of(result, 'getEventLog');
    expect(eventLog?.statuses).toEqual([
      { status: '200', seen: true },
      { status: '400', seen: true },
      { status: '401', seen: true },
      // Refused Host names (DNS rebinding): a server may answer them so; the suite does not ask.
      { status: '403', seen: false },
      { status: '429', seen: false },
    ]);
    expect(eventLog?.undocumented).toEqual([]);
  });

  it('says which auth methods were tried, valid or wrong, and which query parameters were sent', () => {
    expect(of(result, 'getCurrentUser')?.auth).toEqual([
      { method: 'basicAuth', valid: true, wrong: true },
      { method: 'sessionCookie', valid: true, wrong: true },
      { method: 'apiToken', valid: true, wrong: true },
      { method: 'authTokenQuery', valid: true, wrong: true },
      { method: 'none', valid: true, wrong: false },
    ]);
    expect(of(result, 'getEventLog')?.parameters.every((p) => p.exercised)).toBe(true);
    expect(of(result, 'getLimitBlockLog')?.parameters.map((p) => p.name)).toEqual(['from', 'to', 'limit', 'skip', 'ip', 'login', 'uri', 'user']);
  });

  it('says which spec sections a check judged an answer by', () => {
    expect(of(result, 'getEventLog')?.sections).toEqual([{ section: '2', covered: true }, { section: '4.4', covered: true }]);
    expect(of(result, 'createSession')?.sections).toEqual([{ section: '4.3', covered: true }]);
    expect(of(result, 'deleteSession')?.sections).toEqual([]);
  });

  it('lists what did not run and why', () => {
    expect(result.coverage.notRun).toEqual([
      { kind: 'skipped', reason: 'no user given besides the administrator holds the permission it needs (give --operator-login)', checks: ['createAuthToken permission-accepted', 'revokeAuthToken permission-accepted', 'updateEventLogPayload permission-accepted', 'getLimitBlockLog permission-accepted'] },
      { kind: 'skipped', reason: 'rate limits are probed only with --probe-limits', checks: ['getLimitBlockLog block-recorded'] },
    ]);
  });
});

describe('coverage of a read-only run', () => {
  it('names the skipped writes and leaves their statuses unseen', async () => {
    const result = await runContract({ baseUrl: fake.url, admin: ADMIN, seed: 1, allowWrites: false, groups: ['sequences', 'permissions'] });
    const reasons = result.coverage.notRun.map((n) => n.reason);
    expect(reasons).toEqual(expect.arrayContaining(['sequences of writes not run: read-only (--read-only)', 'no low-privilege user (give --low-login)']));
    expect(of(result, 'updateEventLogPayload')?.requests).toBe(0);
    expect(of(result, 'updateEventLogPayload')?.statuses.every((s) => !s.seen)).toBe(true);
  });
});

describe('--min-coverage', () => {
  it('fails the run when fewer documented statuses were seen, and passes it at or under the share seen', async () => {
    const short = await runContract({ baseUrl: fake.url, admin: ADMIN, seed: 1, groups: [], minCoverage: 20 });
    expect(short.violations).toBe(0);
    expect(short.coverage).toMatchObject({ minimum: 20, belowMinimum: true });
    expect(short.coverage.totals.statuses.percent).toBeLessThan(20);
    expect(short.exitCode).toBe(1);
    const enough = await runContract({ baseUrl: fake.url, admin: ADMIN, seed: 1, groups: [], minCoverage: short.coverage.totals.statuses.percent });
    expect(enough).toMatchObject({ exitCode: 0, coverage: { belowMinimum: false } });
  });
});
