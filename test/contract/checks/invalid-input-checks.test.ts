import { describe, expect, it } from 'vitest';
import { invalidInputRefused } from '../../../src/contract/checks/step-checks.js';
import { context, exchange, found } from '../helpers/synthetic.js';

const ok = (body: unknown, status = 200) => exchange('getEventLog', { status, body });

describe('invalid-input-refused', () => {
  it('passes a 4xx, leaves a 5xx to not-server-error and notes an accepted invalid input', async () => {
    const ctx = await context();
    const facts = { what: 'limit=abc', parameter: 'limit' };
    expect(found(invalidInputRefused.run(ok({}, 400), ctx, facts))).toEqual([]);
    expect(found(invalidInputRefused.run(ok({}, 500), ctx, facts))).toEqual([]);
    const [f] = found(invalidInputRefused.run(ok([]), ctx, facts));
    expect(f).toMatchObject({ verdict: 'note', citation: { source: 'gap-fill', ref: 'getEventLog parameter "limit"' } });
  });
  it('cites the 400 response when the parameter has no gap-fill', async () => {
    const [f] = found(invalidInputRefused.run(ok([]), await context(), { what: 'type=3', parameter: 'type' }));
    expect(f?.citation.ref).toBe('getEventLog response 400');
  });
});
