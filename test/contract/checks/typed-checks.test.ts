// A check reads alone: its name is a literal of the registry's union and its facts are its own
// type, so a misspelt name or a missing or misspelt fact does not compile (npm test type-checks
// this file; each @ts-expect-error fails the type check if the error it expects goes away).
import { describe, expect, it } from 'vitest';
import { apply } from '../../../src/contract/checks/check.js';
import { limitHonoured, sortOrder } from '../../../src/contract/checks/model-checks.js';
import { titleOf, type CheckName } from '../../../src/contract/checks/registry.js';
import { responseSchema } from '../../../src/contract/checks/response-schema.js';
import { GROUPS } from '../../../src/contract/run/groups.js';
import { plansFor } from '../../../src/contract/run/run-contract.js';
import { context, exchange, found, records } from '../helpers/synthetic.js';

describe('typed checks', () => {
  it('names are literals of the registry', () => {
    const name: CheckName = 'pages-agree';
    expect(titleOf(name)).toMatch(/skip\/limit/);
    // @ts-expect-error: no check is named so
    titleOf('page-agree');
    expect(titleOf('case/token-flow')).toBe(titleOf('case-expectation'));
  });

  it('facts are each check\'s own type', async () => {
    const applied = apply(limitHonoured, { query: { limit: '1' } });
    expect(found(applied.judge(exchange('getEventLog', { status: 200, body: records(2) }), await context()))).toHaveLength(1);
    // @ts-expect-error: limit-honoured needs the query sent
    apply(limitHonoured);
    // @ts-expect-error: a misspelt fact
    apply(limitHonoured, { qurey: { limit: '1' } });
    // @ts-expect-error: a query is parameter texts
    apply(sortOrder, { query: { limit: 1 } });
    // @ts-expect-error: response checks take no facts
    apply(responseSchema, { limit: 1 });
    expect(apply(responseSchema).name).toBe('response-schema');
  });

  it('every group has its plan and every plan its group', () => {
    expect(Object.keys(plansFor([]))).toEqual([...GROUPS]);
  });
});
