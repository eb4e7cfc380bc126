// A case of one's own (--cases) may write without saying `requires: [writes]`: against a
// read-only run its write step is never sent, and the case is skipped with the reason, like the
// kit's own write cases, instead of ending the run.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { check } from '../hostile/hostile-server.js';
import { ADMIN, listeningFake, type ListeningFake } from '../helpers/fake.js';

let fake: ListeningFake;
beforeAll(async () => {
  fake = await listeningFake();
});
afterAll(() => fake.close());

const cases = `
updateEventLogPayload:
  - name: my-update
    steps:
      - name: read first
        operationId: getCurrentUser
        expect: { status: 200 }
      - name: update an unknown id
        operationId: updateEventLogPayload
        path: { id: '{{unknownId}}' }
        body: { text: contract-check }
        expect: { status: 404 }
`;

interface Report {
  outcomes: { operationId: string; check: string; exchanges: number; skipped?: string; inconclusive?: string; failures: unknown[] }[];
}

describe('a case that writes without requires: [writes]', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cases-'));
  writeFileSync(join(dir, 'mine.yaml'), cases);

  it('is skipped in a read-only run, and nothing of it is sent', async () => {
    fake.requests.length = 0;
    const { code, stdout, stderr } = await check({ baseUrl: fake.url, login: ADMIN.login, password: ADMIN.password, readOnly: true, cases: dir, only: ['cases'], reporter: 'json', seed: 2 } as never);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const outcome = (JSON.parse(stdout) as Report).outcomes.find((o) => o.check === 'case/my-update');
    expect(outcome).toMatchObject({ operationId: 'updateEventLogPayload', exchanges: 0, skipped: expect.stringMatching(/^read-only/) as unknown });
    expect(fake.requests.filter((r) => r.method === 'PATCH')).toEqual([]);
    expect(fake.requests.filter((r) => r.url.includes('/users/current'))).toHaveLength(2);
  }, 60_000);

  it('runs when writes are allowed, which shows the test above could fail', async () => {
    fake.requests.length = 0;
    const { code, stdout } = await check({ baseUrl: fake.url, login: ADMIN.login, password: ADMIN.password, allowWrites: true, cases: dir, only: ['cases'], reporter: 'json', seed: 2 });
    expect(code).toBe(0);
    const outcome = (JSON.parse(stdout) as Report).outcomes.find((o) => o.check === 'case/my-update');
    expect(outcome).toMatchObject({ exchanges: 2, failures: [] });
    expect(fake.requests.filter((r) => r.method === 'PATCH')).toHaveLength(1);
  }, 60_000);
});
