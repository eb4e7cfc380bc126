import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCheck, type CheckFlags } from '../../src/cli/check.js';
import { freePort } from '../../src/shared/free-port.js';
import { listeningFake } from '../contract/helpers/fake.js';
import { bin, runBin } from '../helpers/run-bin.js';

const base: CheckFlags = { reporter: 'console', quiet: true };

async function run(flags: Partial<CheckFlags> & { readOnly?: boolean }) {
  let stdout = '';
  let stderr = '';
  const code = await runCheck({ ...base, ...flags }, { stdout: (t) => (stdout += t), stderr: (t) => (stderr += t) });
  return { code, stdout, stderr };
}

describe('check: usage and connection errors exit 2 with one clear line', () => {
  it('without administrator credentials', async () => {
    const { code, stderr, stdout } = await run({ baseUrl: 'http://127.0.0.1:1' });
    expect(code).toBe(2);
    expect(stderr).toBe('monitoring-api-kit check: administrator credentials are required: --login and --password (or MONITORING_API_LOGIN and MONITORING_API_PASSWORD)\n');
    expect(stdout).toBe('');
  });

  it('without a base URL, with half a low-privilege login, with contradicting flags', async () => {
    expect((await run({ login: 'a', password: 'b' })).stderr).toMatch(/--base-url is required/);
    expect((await run({ baseUrl: 'http://127.0.0.1:1', login: 'a', password: 'b', lowLogin: 'v' })).code).toBe(2);
    expect((await run({ baseUrl: 'http://127.0.0.1:1', login: 'a', password: 'b', allowWrites: true, readOnly: true })).stderr).toMatch(/contradict/);
  });

  it('when the server cannot be reached', async () => {
    const port = await freePort();
    const { code, stderr } = await run({ baseUrl: `http://127.0.0.1:${port}`, login: 'admin', password: 'x' });
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(new RegExp(`^monitoring-api-kit check: cannot reach http://127\\.0\\.0\\.1:${port}: ECONNREFUSED`));
    expect(stderr).not.toMatch(/\n\s+at /);
  });

  it('on a bad flag, from the command line', () => {
    const result = spawnSync(process.execPath, [bin, 'check', '--reporter', 'xml'], { encoding: 'utf8', env: { ...process.env, MONITORING_API_LOGIN: '', MONITORING_API_PASSWORD: '' } });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/option '--reporter <name>' argument 'xml' is invalid/);
  });
});

describe('check against a started fake, from the command line', () => {
  it('exits 0 with progress, a summary (--verbose: the table of every check) and the seed; writes JUnit when asked', async () => {
    const fake = await listeningFake();
    const report = join(mkdtempSync(join(tmpdir(), 'junit-')), 'contract.xml');
    try {
      const { code, stdout, stderr } = await runBin(['check', '--base-url', fake.url, '--seed', '9', '--reporter', 'junit', '--output', report, '--verbose'], {
        MONITORING_API_LOGIN: 'admin',
        MONITORING_API_PASSWORD: 'admin-password',
        MONITORING_API_LOW_LOGIN: 'viewer',
        MONITORING_API_LOW_PASSWORD: 'viewer-password',
      });
      expect(code, stderr).toBe(0);
      expect(stderr).toMatch(/^Checking http:\/\/127\.0\.0\.1:\d+ \(seed 9; writes allowed \(loopback target\)\)\n/);
      expect(stderr).toMatch(/^ok {3}event-log +\d+ requests, 0 violation\(s\), 0 note\(s\)$/m);
      expect(stderr).not.toMatch(/Warning/);
      expect(stdout).toMatch(/^getEventLog +pages-agree +ok/m);
      expect(stdout).toMatch(/PASSED: 0 violation\(s\), 0 note\(s\), 0 inconclusive in \d+ requests to http:\/\/127\.0\.0\.1:\d+\. Seed 9/);
      const xml = readFileSync(report, 'utf8');
      expect(xml).toMatch(/<testsuite name="getEventLog" tests="\d+" failures="0"/);
      expect(xml).not.toContain('admin-password');
    } finally {
      await fake.close();
    }
  });
});

describe('check --reporter markdown and --min-coverage', () => {
  it('writes markdown with the coverage section, and fails the run when too few documented statuses were seen', async () => {
    const fake = await listeningFake();
    try {
      const flags = { baseUrl: fake.url, login: 'admin', password: 'admin-password', seed: 3, only: ['event-log'] };
      const passed = await run({ ...flags, reporter: 'markdown' });
      expect(passed.code).toBe(0);
      expect(passed.stdout).toMatch(/^## Contract check: ✅ PASSED\n/);
      expect(passed.stdout).toMatch(/### Coverage\n\n\d+ of 8 operations answered; \d+ of \d+ documented statuses seen/);
      expect(passed.stderr).toMatch(/PASSED: 0 violation\(s\)/);
      const short = await run({ ...flags, minCoverage: 90 });
      expect(short.code).toBe(1);
      expect(short.stdout).toMatch(/--min-coverage 90: [\d.]+ % of the documented statuses seen, below the minimum: the run fails\./);
      expect(short.stdout).toMatch(/FAILED: 0 violation\(s\), 0 note\(s\), 0 inconclusive in \d+ requests to [^;]+; [\d.]+ % of the documented statuses seen, below --min-coverage 90\./);
    } finally {
      await fake.close();
    }
  });

  it('refuses a percentage out of range, from the command line', () => {
    const result = spawnSync(process.execPath, [bin, 'check', '--min-coverage', '150'], { encoding: 'utf8', env: { ...process.env, MONITORING_API_LOGIN: '', MONITORING_API_PASSWORD: '' } });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/option '--min-coverage <percent>' argument '150' is invalid\. expected a percentage from 0 to 100/);
  });
});

describe('check --compare-with', () => {
  it('runs both servers with one seed and reports their differences as notes', async () => {
    const first = await listeningFake();
    const second = await listeningFake({ seed: 77 });
    try {
      const { code, stdout, stderr } = await run({ baseUrl: first.url, compareWith: second.url, login: 'admin', password: 'admin-password', seed: 3, only: ['event-log'] });
      expect(code).toBe(0);
      expect(stderr).toContain(`Comparing with ${second.url} (seed 3)`);
      expect(stdout).toMatch(/^NOTE getEventLog · differs: Answers the same as http:\/\/127\.0\.0\.1:\d+$/m);
      expect(stdout).toMatch(/value differs at step getEventLog\/world-0/);
    } finally {
      await first.close();
      await second.close();
    }
  });
});
