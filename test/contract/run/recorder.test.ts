import { describe, expect, it } from 'vitest';
import { caseExpectation } from '../../../src/contract/checks/step-checks.js';
import { apply } from '../../../src/contract/checks/check.js';
import { limitHonoured } from '../../../src/contract/checks/model-checks.js';
import { createRecorder } from '../../../src/contract/run/recorder.js';
import { statusOf } from '../../../src/contract/run/results.js';
import { createSecrets } from '../../../src/shared/redaction/secret-values.js';
import { exchange, records, specAndValidator } from '../helpers/synthetic.js';

describe('recorder', () => {
  it('runs the response checks on every exchange and the named ones on request, counting per operation and check', async () => {
    const { spec, validator } = await specAndValidator();
    const recorder = createRecorder({ spec, validator }, createSecrets());
    recorder.evaluate(exchange('getEventLog', { status: 200, body: records(3) }), { checks: [apply(limitHonoured, { query: { limit: '2' } })] });
    recorder.evaluate(exchange('getEventLog', { status: 200, body: records(1) }), {});
    const outcomes = recorder.outcomes();
    const of = (check: string) => outcomes.find((o) => o.operationId === 'getEventLog' && o.check === check);
    expect(of('response-schema')?.exchanges).toBe(2);
    const limit = of('limit-honoured');
    expect(limit?.exchanges).toBe(1);
    expect(limit && statusOf(limit)).toBe('failed');
    expect(of('prism-violations')).toBeUndefined();
  });

  it('reports named checks under another operation and name when asked (contract cases)', async () => {
    const { spec, validator } = await specAndValidator();
    const recorder = createRecorder({ spec, validator }, createSecrets());
    recorder.evaluate(exchange('getCurrentUser', { status: 200, body: {} }), {
      checks: [apply(caseExpectation, { step: 'refused', expect: { status: [401] } })],
      reportAs: { operationId: 'createSession', check: 'case/session-flow' },
    });
    const outcome = recorder.outcomes().find((o) => o.check === 'case/session-flow');
    expect(outcome).toMatchObject({ operationId: 'createSession', exchanges: 1 });
    expect(outcome?.failures[0]).toMatchObject({ check: 'case/session-flow', operationId: 'createSession' });
    expect(outcome?.failures[0]?.curl).toMatch(/^curl /);
  });

  it('keeps why a check was skipped, and a skipped check with no exchange is "skipped"', async () => {
    const { spec, validator } = await specAndValidator();
    const recorder = createRecorder({ spec, validator }, createSecrets());
    recorder.skip('getLimitBlockLog', 'block-recorded', 'not asked');
    recorder.skip('getLimitBlockLog', 'block-recorded', 'second reason is not kept');
    const [outcome] = recorder.outcomes();
    expect(outcome).toMatchObject({ skipped: 'not asked', exchanges: 0 });
    expect(outcome && statusOf(outcome)).toBe('skipped');
  });

  it('trims and masks bodies for reports', () => {
    const secrets = createSecrets();
    secrets.add('s3cr3t-token');
    expect(secrets.shownHead(JSON.stringify({ authenticationToken: 'x-y-z', login: 'admin', note: 's3cr3t-token' }), 600)).toBe('{"authenticationToken":"***","login":"admin","note":"***"}');
    expect(secrets.shownHead('a'.repeat(1000), 600)).toMatch(/^a{600}… \(1000 characters\)$/);
  });
});
