// The whole suite against the healthy fake: every group runs, nothing is flagged.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { answerLimitsFor, measureJson } from '../../src/contract/client/transport.js';
import { startBreakingProxy } from './broken/breaking-proxy.js';
import { runContract } from '../../src/contract/run/run-contract.js';
import { statusOf, type RunResult } from '../../src/contract/run/results.js';
import { withDifferences } from '../../src/contract/differential.js';
import { ADMIN, listeningFake, OPERATOR, VIEWER, type ListeningFake } from './helpers/fake.js';

let fake: ListeningFake;

beforeAll(async () => {
  fake = await listeningFake();
});
afterAll(() => fake.close());
beforeEach(() => fake.app.fake.state.reset());

const findings = (result: RunResult) => result.outcomes.flatMap((o) => o.failures).map((f) => `${f.operationId} ${f.check} ${f.verdict}: ${f.message}`);
const ran = (result: RunResult, operationId: string, check: string) => result.outcomes.find((o) => o.operationId === operationId && o.check === check);

describe('the suite against the healthy fake', () => {
  let result: RunResult;
  beforeAll(async () => {
    result = await runContract({ baseUrl: fake.url, admin: ADMIN, low: VIEWER, operator: OPERATOR, seed: 1 });
  });

  it('passes with no violation, no note and nothing inconclusive', () => {
    expect(findings(result)).toEqual([]);
    expect(result).toMatchObject({ exitCode: 0, violations: 0, notes: 0, inconclusive: 0, seed: 1 });
  });

  it('says of every check either ok or why it was skipped', () => {
    const other = result.outcomes.filter((o) => statusOf(o) !== 'passed').map((o) => `${o.operationId} ${o.check} ${statusOf(o)}: ${o.skipped ?? o.inconclusive ?? ''}`);
    const holdsManageUsers = 'no user given besides the administrator holds the permission it needs';
    expect(other.sort()).toEqual([
      `createAuthToken permission-accepted skipped: ${holdsManageUsers}`,
      'getLimitBlockLog block-recorded skipped: rate limits are probed only with --probe-limits',
      `getLimitBlockLog permission-accepted skipped: ${holdsManageUsers}`,
      `revokeAuthToken permission-accepted skipped: ${holdsManageUsers}`,
    ]);
  });

  it('really checked the meaning of every operation (the checks looked at answers)', () => {
    const expected: [string, string][] = [
      ['getEventLog', 'pages-agree'],
      ['getEventLog', 'sort-order'],
      ['getEventLog', 'inverse-order'],
      ['getEventLog', 'type-filter'],
      ['getEventLog', 'time-range'],
      ['getEventLog', 'filter-matches'],
      ['getEventLog', 'limit-honoured'],
      ['getEventLog', 'records-consistent'],
      ['getEventLog', 'invalid-input-refused'],
      ['updateEventLogPayload', 'payload-update-persists'],
      ['updateEventLogPayload', 'mqtt-update-refused'],
      ['createAuthToken', 'token-state'],
      ['createSession', 'session-state'],
      ['getLimitBlockLog', 'boolean-filter'],
      ['getLimitBlockLog', 'pages-agree'],
      ['getLimitBlockLog', 'time-range'],
      ['getLimitBlockLog', 'sort-order'],
      ['getLimitBlockLog', 'limit-honoured'],
      ['getLimitBlockLog', 'records-consistent'],
      ['createAuthToken', 'case/token-flow'],
      ['createAuthToken', 'token-issued-new'],
      ['createSession', 'case/session-flow'],
      ['getCurrentUser', 'wrong-credentials-refused'],
      ['updateEventLogPayload', 'unauthenticated-refused'],
      ['createAuthToken', 'undeclared-scheme-refused'],
      ['deleteSession', 'undeclared-scheme-refused'],
      ['updateEventLogPayload', 'permission-accepted'],
      ['createSession', 'session-cookie-attributes'],
    ];
    for (const [op, check] of expected) {
      const outcome = ran(result, op, check);
      expect(outcome && statusOf(outcome), `${op} ${check}`).toBe('passed');
    }
    // The check of created tokens judges createAuthToken's answers alone: no `ok` on the others.
    expect(result.outcomes.filter((o) => o.check === 'token-issued-new').map((o) => o.operationId)).toEqual(['createAuthToken']);
    // Refused to the viewer (no permission) and, where manage-users is needed, to the operator; and to the viewer's own token.
    const refused = Object.fromEntries(['createAuthToken', 'revokeAuthToken', 'updateEventLogPayload', 'getLimitBlockLog'].map((op) => [op, ran(result, op, 'permission-refused')?.exchanges]));
    expect(refused).toEqual({ createAuthToken: 2, revokeAuthToken: 2, updateEventLogPayload: 3, getLimitBlockLog: 4 });
  });

  it('put the payload texts back and left no token of its own', async () => {
    const texts = result.exchanges.filter((e) => e.operationId === 'updateEventLogPayload' && e.response?.status === 204 && e.request.body?.includes('contract-check 1 '));
    expect(texts.length).toBeGreaterThan(0);
    const basic = { authorization: `Basic ${Buffer.from('admin:admin-password').toString('base64')}` };
    const after = await fake.app.inject({ url: '/node/api/event-log', headers: basic });
    expect(after.body).not.toContain('contract-check');
    const viewer = await fake.app.inject({ url: '/node/api/users/current', headers: { authorization: `Basic ${Buffer.from('viewer:viewer-password').toString('base64')}` } });
    expect(JSON.parse(viewer.body)).not.toHaveProperty('authenticationToken');
  });
});

describe('the bounds of what the runner parses', () => {
  it('admit a reference list of the fake\'s largest records (sorted so that traps with the most varbinds come first)', async () => {
    const all = await fake.app.inject({ url: '/node/api/event-log', headers: { authorization: `Basic ${Buffer.from('admin:admin-password').toString('base64')}` } });
    const size = (r: unknown): number => measureJson(Buffer.from(JSON.stringify(r)), { maxDepth: 100, maxValues: Number.MAX_SAFE_INTEGER }).values;
    const largest = (JSON.parse(all.body) as unknown[]).sort((a, b) => size(b) - size(a)).slice(0, 200);
    expect(measureJson(Buffer.from(JSON.stringify(largest)), answerLimitsFor(200).json).excess).toBeUndefined();
  });
});

describe('--probe-limits against a fake with a tight limit per login', () => {
  it('trips the limit as the low-privilege user and finds the block in the log', async () => {
    const tight = await listeningFake({ rateLimit: [{ key: 'login', limit: 5, windowSeconds: 60, blockSeconds: 60 }] });
    try {
      const result = await runContract({ baseUrl: tight.url, admin: ADMIN, low: VIEWER, seed: 1, groups: ['probe-limits'], probeLimits: true, probeRequests: 20 });
      const outcome = ran(result, 'getLimitBlockLog', 'block-recorded');
      expect(outcome && statusOf(outcome)).toBe('passed');
      expect(result.exchanges.filter((e) => e.key.startsWith('probe/') && e.response?.status === 429)).toHaveLength(1);
    } finally {
      await tight.close();
    }
  });

  it('flags a server whose log does not show the block', async () => {
    const tight = await listeningFake({ rateLimit: [{ key: 'login', limit: 5, windowSeconds: 60, blockSeconds: 60 }] });
    const amnesic = await startBreakingProxy(tight.url, {
      response: (r, res) => (r.url.pathname === '/node/api/limit-block-log' && res.status === 200 ? { ...res, body: '[]' } : res),
    });
    try {
      const result = await runContract({ baseUrl: amnesic.url, admin: ADMIN, low: VIEWER, seed: 1, groups: ['probe-limits'], probeLimits: true, probeRequests: 20 });
      expect(ran(result, 'getLimitBlockLog', 'block-recorded')?.failures[0]).toMatchObject({ verdict: 'violation', citation: { ref: '8' } });
    } finally {
      await amnesic.close();
      await tight.close();
    }
  });
});

describe('differential mode', () => {
  it('finds no difference between two fakes of the same seed, and finds an ignored type', async () => {
    const twin = await listeningFake();
    const broken = await startBreakingProxy(twin.url, {
      request: (r) => {
        r.url.searchParams.delete('type');
        return r;
      },
    });
    try {
      const options = { admin: ADMIN, low: VIEWER, seed: 4, groups: ['event-log', 'authentication'] };
      const first = await runContract({ ...options, baseUrl: fake.url, compared: true });
      twin.app.fake.state.reset();
      const same = withDifferences(first, await runContract({ ...options, baseUrl: twin.url, drawnCases: first.drawnCases }));
      expect(same.outcomes.filter((o) => o.check === 'differs')).toEqual([]);
      expect(same.drift.groups).toEqual([]);
      twin.app.fake.state.reset();
      const differs = withDifferences(first, await runContract({ ...options, baseUrl: broken.url, drawnCases: first.drawnCases }));
      const notes = differs.outcomes.filter((o) => o.check === 'differs').flatMap((o) => o.failures);
      // One note per operation and kind: its first step, and how many more.
      // The first generated query with a type differs; the later ones are the same kinds.
      expect(notes.length).toBeGreaterThan(0);
      for (const note of notes) expect(note.key).toMatch(/^getEventLog\/(example|case|shrink)-\d+$/);
      expect(notes[0]?.message).toMatch(/ at step getEventLog\/(example|case|shrink)-\d+ at \S+ \(and [1-9]\d* more\): /);
      expect(differs.drift.groups.reduce((n, g) => n + g.count, 0)).toBeGreaterThanOrEqual(2);
      expect(notes.every((n) => n.verdict === 'note')).toBe(true);
    } finally {
      await broken.close();
      await twin.close();
    }
  }, 90_000);
});
