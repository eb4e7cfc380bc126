// --budget bounds the time of the generated cases; the default run passes on the fake, --strict too.
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { listeningFake } from '../contract/helpers/fake.js';
import { bin, runBin } from '../helpers/run-bin.js';

const admin = { MONITORING_API_LOGIN: 'admin', MONITORING_API_PASSWORD: 'admin-password' };

describe('check --budget', () => {
  it('passes the fake under --strict with the default budget and with a short one', async () => {
    const fake = await listeningFake();
    try {
      for (const budget of [[], ['--budget', '1']]) {
        const { code, stdout, stderr } = await runBin(['check', '--base-url', fake.url, '--seed', '5', '--strict', '--only', 'event-log,limit-block-log', '--verbose', ...budget], admin);
        expect(code, `${stdout}\n${stderr}`).toBe(0);
        expect(stdout).toMatch(/^getEventLog +records-consistent +ok/m);
        expect(stdout).toMatch(/PASSED: 0 violation\(s\), 0 note\(s\), 0 inconclusive/);
      }
    } finally {
      await fake.close();
    }
  }, 120_000);

  it('takes whole seconds, at least one', () => {
    const result = spawnSync(process.execPath, [bin, 'check', '--budget', '0'], { encoding: 'utf8', env: { ...process.env, ...admin } });
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/option '--budget <seconds>' argument '0' is invalid/);
  });
});
