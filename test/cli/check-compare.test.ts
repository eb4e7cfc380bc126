// check --compare-with: the second server with its own credentials, and the drift report grouped
// by kind (status, field missing, type, order, value) with a count and one example each.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCheck, type CheckFlags } from '../../src/cli/check.js';
import type { DriftReport } from '../../src/contract/differential.js';
import { json, startBreakingProxy, type RunningProxy } from '../contract/broken/breaking-proxy.js';
import { listeningFake, type ListeningFake } from '../contract/helpers/fake.js';

async function run(flags: Partial<CheckFlags>) {
  let stdout = '';
  let stderr = '';
  const code = await runCheck({ reporter: 'console', quiet: true, login: 'admin', password: 'admin-password', seed: 5, budget: 1, ...flags }, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

describe('check --compare-with a server with other logins', () => {
  let first: ListeningFake;
  let second: ListeningFake;
  beforeAll(async () => {
    // The same data, other users: an administrator and a viewer of their own.
    const users = join(mkdtempSync(join(tmpdir(), 'other-users-')), 'users.json');
    writeFileSync(
      users,
      JSON.stringify([
        { id: '65f0c0ffee0000000000aa01', login: 'ops', password: 'ops-Secret-41', permissions: ['manage-users', 'manage-event-log', 'manage-configuration'] },
        { id: '65f0c0ffee0000000000aa02', login: 'guest', password: 'guest-Secret-42', permissions: [] },
      ]),
    );
    first = await listeningFake({ records: 200 });
    second = await listeningFake({ records: 200, users });
  });
  afterAll(async () => {
    await first.close();
    await second.close();
  });

  it("stops at once when the first server's credentials are reused and refused", async () => {
    const { code, stderr } = await run({ baseUrl: first.url, compareWith: second.url, only: ['event-log'] });
    expect(code).toBe(2);
    expect(stderr).toContain(`the administrator credentials were refused (401) by ${second.url}; give the second server its own with --compare-login and --compare-password`);
  });

  it('logs in to each server with its own credentials; in the same data only the user logged in differs', async () => {
    const flags = { baseUrl: first.url, compareWith: second.url, lowLogin: 'viewer', lowPassword: 'viewer-password', compareLogin: 'ops', comparePassword: 'ops-Secret-41', compareLowLogin: 'guest', compareLowPassword: 'guest-Secret-42', only: ['event-log', 'limit-block-log', 'permissions'] };
    const { code, stdout, stderr } = await run(flags);
    expect(code, stdout + stderr).toBe(0);
    expect(stderr).toContain(`Comparing with ${second.url} (seed 5, as ops)`);
    expect(stdout).toMatch(new RegExp(`^Drift of ${second.url} from ${first.url}: \\d+ step\\(s\\) compared, 0 not compared`, 'm'));
    const { drift } = JSON.parse((await run({ ...flags, reporter: 'json' })).stdout) as { drift: DriftReport };
    expect(drift.groups).toEqual([
      { kind: 'value', title: 'value differs', count: expect.any(Number), example: expect.objectContaining({ operationId: 'getCurrentUser', path: '/login', first: '"admin"', second: '"ops"' }) },
    ]);
    // "0 not compared": the permission checks ran on both, each with its own low-privilege user.
    for (const secret of ['ops-Secret-41', 'guest-Secret-42', Buffer.from('ops:ops-Secret-41').toString('base64')]) expect(stdout + stderr).not.toContain(secret);
  });

  it('takes the second pair from the environment names like the first', async () => {
    const { runBin } = await import('../helpers/run-bin.js');
    const { code, stdout, stderr } = await runBin(['check', '--base-url', first.url, '--compare-with', second.url, '--only', 'event-log', '--seed', '5', '--quiet'], {
      MONITORING_API_LOGIN: 'admin',
      MONITORING_API_PASSWORD: 'admin-password',
      MONITORING_API_COMPARE_LOGIN: 'ops',
      MONITORING_API_COMPARE_PASSWORD: 'ops-Secret-41',
    });
    expect(code, stderr).toBe(0);
    expect(stderr).toContain('(seed 5, as ops)');
    expect(stdout).toMatch(/^Drift of /m);
  }, 60_000);

  it('refuses half a pair, and a pair without --compare-with', async () => {
    expect((await run({ baseUrl: first.url, compareWith: second.url, compareLogin: 'ops' })).stderr).toMatch(/--compare-login and --compare-password go together/);
    expect((await run({ baseUrl: first.url, compareWith: second.url, compareLowLogin: 'guest' })).stderr).toMatch(/--compare-low-login and --compare-low-password go together/);
    expect((await run({ baseUrl: first.url, compareLogin: 'ops', comparePassword: 'x' })).stderr).toMatch(/need --compare-with/);
  });
});

describe('check --compare-with a deliberately different server', () => {
  let fake: ListeningFake;
  let twin: ListeningFake;
  let different: RunningProxy;
  beforeAll(async () => {
    fake = await listeningFake({ records: 200 });
    twin = await listeningFake({ records: 200 });
    // The same data as the fake, served differently: each change shows as one kind of drift. The
    // reads of the closed world (limit=201, all of it oldest and newest first) are left alone but
    // the first, so that both runs go on to the same generated queries.
    different = await startBreakingProxy(twin.url, {
      request: (req) => (req.url.pathname === '/node/api/limit-block-log' ? json(404, { status: 404, code: 'ROUTE_NOT_FOUND', message: 'no block log here' }) : req),
      response: (req, res) => {
        if (req.url.pathname !== '/node/api/event-log' || res.status !== 200) return res;
        const q = req.url.searchParams;
        const list = JSON.parse(res.body) as Record<string, unknown>[];
        let changed = list;
        const worldRead = q.get('limit') === '201';
        if (worldRead) {
          if (!q.has('from') && list[0]) changed = [{ ...list[0], agentId: 'someone-else' }, ...list.slice(1)];
        } else if (q.get('sortDirection') === 'desc' && !q.has('inverse')) changed = [...list].reverse();
        else if (q.has('type')) changed = list.map(({ entity: _e, ...rest }) => rest);
        else if (q.has('skip')) changed = list.map((r) => ({ ...r, timestamp: String(r.timestamp) }));
        return { ...res, body: JSON.stringify(changed) };
      },
    });
  });
  afterAll(async () => {
    await different.close();
    await fake.close();
    await twin.close();
  });

  it('groups the differences by kind, with a count and one example each, in the console and JSON reports', async () => {
    const flags = { baseUrl: fake.url, compareWith: different.url, only: ['event-log', 'limit-block-log'] };
    const asJson = await run({ ...flags, reporter: 'json' });
    expect(asJson.code, asJson.stderr).toBe(0);
    const drift = (JSON.parse(asJson.stdout) as { drift: DriftReport }).drift;
    expect(drift.compareWith).toBe(different.url);
    expect(drift.groups.map((g) => g.kind)).toEqual(['status', 'field-missing', 'type', 'order', 'value']);
    const group = (kind: string) => drift.groups.find((g) => g.kind === kind)!;
    expect(group('status').example).toMatchObject({ operationId: 'getLimitBlockLog', first: '200', second: '404' });
    expect(group('field-missing').example).toMatchObject({ operationId: 'getEventLog', path: '/[]/entity', first: 'present', second: 'missing' });
    expect(group('field-missing').example.request).toMatch(/[?&]type=/);
    expect(group('type').example).toMatchObject({ path: '/[]/timestamp', first: 'number', second: 'string' });
    expect(group('order').example.request).toMatch(/sortDirection=desc/);
    expect(group('value').example).toMatchObject({ step: 'getEventLog/world-0', path: '/0/agentId', second: '"someone-else"' });
    for (const g of drift.groups) {
      expect(g.count).toBeGreaterThan(0);
      expect(g.example.request).toMatch(/^curl /);
      expect(g.example.request).not.toContain('admin-password');
    }

    const console = await run(flags);
    expect(console.code).toBe(0);
    const report = console.stdout.slice(console.stdout.indexOf('Drift of'));
    for (const g of drift.groups) expect(report).toMatch(new RegExp(`^  ${g.title} +\\d+  e\\.g\\. ${g.example.operationId}, step ${g.example.step.replace(/[/.]/g, '\\$&')}`, 'm'));
    expect(console.stdout).toMatch(/^NOTE getEventLog · differs: Answers the same as http:\/\/127\.0\.0\.1:\d+$/m);

    const html = await run({ ...flags, reporter: 'html' });
    expect(html.stdout).toContain(`<section id="drift"><h2>Drift of ${different.url}</h2>`);
    // Each run draws as many generated cases as its time allows: the counts of separate runs differ.
    for (const g of drift.groups) expect(html.stdout).toMatch(new RegExp(`<tr><td>${g.title}</td><td>\\d+</td>`));

    const markdown = await run({ ...flags, reporter: 'markdown' });
    expect(markdown.stdout).toContain(`### Drift of ${different.url}`);
    for (const g of drift.groups) expect(markdown.stdout).toMatch(new RegExp(`^\\| ${g.title} \\| \\d+ \\| ${g.example.operationId}, step `, 'm'));

    const junit = await run({ ...flags, reporter: 'junit' });
    expect(junit.code).toBe(0);
    const suite = junit.stdout.slice(junit.stdout.indexOf('<testsuite name="drift"'), junit.stdout.indexOf('<testsuite name="coverage"'));
    expect(suite).toContain(`<property name="compareWith" value="${different.url}"/>`);
    for (const g of drift.groups) {
      expect(suite).toContain(`<testcase classname="monitoring-api-kit.drift" name="${g.kind}"`);
      expect(suite).toMatch(new RegExp(`${g.title}: \\d+`));
    }
    expect(suite).not.toContain('admin-password');
  }, 60_000);
});
