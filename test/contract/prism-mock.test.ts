// A stateless mock answers from examples: the semantic checks must catch it, without a crash.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../src/cli/check.js';
import { startPrismMock, type RunningPrism } from './helpers/prism-mock.js';

let prism: RunningPrism;

beforeAll(async () => {
  prism = await startPrismMock();
});
afterAll(() => prism?.stop());

describe('the runner against prism mock', () => {
  it('exits 1 and names the semantic checks a stateless mock cannot pass', async () => {
    let stdout = '';
    const code = await runCheck(
      { baseUrl: prism.url, login: 'admin', password: 'admin-password', lowLogin: 'viewer', lowPassword: 'viewer-password', seed: 5, reporter: 'json', quiet: true },
      { stdout: (t) => (stdout += t), stderr: () => undefined },
    );
    expect(code).toBe(1);
    const report = JSON.parse(stdout) as { seed: number; outcomes: { operationId: string; check: string; status: string }[] };
    expect(report.seed).toBe(5);
    const failed = report.outcomes.filter((o) => o.status === 'failed').map((o) => `${o.operationId} ${o.check}`);
    expect(failed).toEqual(
      expect.arrayContaining([
        'getEventLog limit-honoured',
        'getLimitBlockLog limit-honoured',
        'getEventLog wrong-credentials-refused',
      ]),
    );
    // A sequence of payload updates stops at the first rule it breaks: the text not persisted, or an MQTT record updated.
    expect(failed.filter((f) => ['updateEventLogPayload payload-update-persists', 'updateEventLogPayload mqtt-update-refused'].includes(f)).length).toBeGreaterThan(0);
  });
});
