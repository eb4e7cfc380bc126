// A report file that cannot be written is a usage error (exit 2, one line on stderr), found
// before the run rather than after it, and runCheck does not throw.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { check } from '../contract/hostile/hostile-server.js';
import { ADMIN, listeningFake, type ListeningFake } from '../contract/helpers/fake.js';

let fake: ListeningFake;
beforeAll(async () => {
  fake = await listeningFake();
});
afterAll(() => fake.close());

describe('check --output to a place that cannot be written', () => {
  it.each(['junit', 'json', 'console'] as const)('--reporter %s exits 2 with one line, before sending anything', async (reporter) => {
    fake.requests.length = 0;
    const output = join(mkdtempSync(join(tmpdir(), 'out-')), 'missing-dir', 'report.xml');
    const { code, stderr, stdout } = await check({ baseUrl: fake.url, login: ADMIN.login, password: ADMIN.password, reporter, output, only: ['authentication'], seed: 1 });
    expect(code).toBe(2);
    expect(stderr).toMatch(/^monitoring-api-kit check: cannot write the report to .*missing-dir.*report\.xml/);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stdout).toBe('');
    expect(fake.requests).toEqual([]);
  }, 60_000);
});
