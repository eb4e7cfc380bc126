import { describe, expect, it } from 'vitest';
import { blockRecorded, caseExpectation, subsetMismatch } from '../../../src/contract/checks/step-checks.js';
import { allChecks, titleOf, type CheckName } from '../../../src/contract/checks/registry.js';
import type { BlockedRequest } from '../../../src/spec/index.js';
import { resolveCitation } from '../../../src/contract/checks/check.js';
import { context, exchange, found, specAndValidator } from '../helpers/synthetic.js';

describe('block-recorded', () => {
  it('finds a recent block naming the URI and flags its absence', async () => {
    const facts = { since: 1_000_000, uri: '/node/api/users/current', login: 'viewer' };
    const recent: BlockedRequest[] = [{ uri: '/node/api/users/current', timestamp: 1_000_500, ttl: 60 }];
    expect(found(blockRecorded.run(exchange('getLimitBlockLog', { status: 200, body: recent }), await context(), facts))).toEqual([]);
    const old: BlockedRequest[] = [{ uri: '/node/api/users/current', timestamp: 1, ttl: 60 }];
    const [f] = found(blockRecorded.run(exchange('getLimitBlockLog', { status: 200, body: old }), await context(), facts));
    expect(f).toMatchObject({ verdict: 'violation', citation: { source: 'spec', ref: '8' } });
  });
});

describe('case-expectation', () => {
  const expect401 = { step: 'refused after logout', expect: { status: [401] } };
  it('judges a status of another class by the operation', async () => {
    const [f] = found(caseExpectation.run(exchange('getCurrentUser', { status: 200, body: {} }), await context(), expect401));
    expect(f).toMatchObject({ check: 'case-expectation', verdict: 'violation', citation: { ref: '4.2' } });
  });
  it('makes another status of the same class a note by the expected response', async () => {
    const [f] = found(caseExpectation.run(exchange('getCurrentUser', { status: 403, body: {} }), await context(), expect401));
    expect(f?.verdict).toBe('note');
  });
  it('follows the citation the case gives for a step', async () => {
    const { spec } = await specAndValidator();
    const citation = resolveCitation(spec, 'deleteSession');
    expect(citation?.source).toBe('gap-fill');
    const [f] = found(caseExpectation.run(exchange('getCurrentUser', { status: 200, body: {} }), await context(), { ...expect401, citation }));
    expect(f).toMatchObject({ verdict: 'note', citation: { ref: 'deleteSession' } });
    expect(resolveCitation(spec, 'components/securitySchemes/apiToken')?.text).toMatch(/token expiry/);
    expect(resolveCitation(spec, 'components/schemas/Nope')).toBeUndefined();
  });
  it('matches body subsets', async () => {
    expect(subsetMismatch({ a: 1, b: [1, { c: 2 }], d: 3 }, { b: [1, { c: 2 }] })).toBeUndefined();
    expect(subsetMismatch({ a: 1 }, { a: 2 })).toBe('/a');
    expect(subsetMismatch([1, 2], [1])).toBe('/');
    const facts = { step: 's', expect: { status: [200], body: { login: 'admin' } } };
    const [f] = found(caseExpectation.run(exchange('getCurrentUser', { status: 200, body: { login: 'x' } }), await context(), facts));
    expect(f?.message).toBe('step "s": the body differs at /login');
  });
});

describe('registry', () => {
  it('names every check once, and each outcome by the title of its check', () => {
    const names = allChecks.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    for (const check of allChecks) expect(titleOf(check.name as CheckName)).toBe(check.title);
  });
});
