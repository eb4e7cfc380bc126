import { describe, expect, it } from 'vitest';
import { filterMatches } from '../../../src/contract/checks/filter-matches.js';
import { invalidInputRefused } from '../../../src/contract/checks/invalid-input-refused.js';
import { inverseOrder } from '../../../src/contract/checks/inverse-order.js';
import { limitHonoured } from '../../../src/contract/checks/limit-honoured.js';
import { pagesAgree } from '../../../src/contract/checks/pages-agree.js';
import { sortOrder } from '../../../src/contract/checks/sort-order.js';
import { timeRange } from '../../../src/contract/checks/time-range.js';
import { typeFilter } from '../../../src/contract/checks/type-filter.js';
import { context, exchange, found, records, trap } from '../helpers/synthetic.js';

const list = records(12);
const reference = exchange('getEventLog', { status: 200, body: list });
const ok = (body: unknown, status = 200) => exchange('getEventLog', { status, body });

describe('limit-honoured', () => {
  it('passes at most limit records and flags more', async () => {
    expect(found(limitHonoured.run(ok(list.slice(0, 5)), await context(), { limit: 5 }))).toEqual([]);
    const [f] = found(limitHonoured.run(ok(list), await context(), { limit: 5 }));
    expect(f).toMatchObject({ verdict: 'violation', citation: { source: 'spec', ref: '4.4' } });
    expect(f?.message).toBe('limit=5 returned 12 records');
  });
});

describe('pages-agree', () => {
  const facts = { skip: 4, limit: 4, idField: '_id', sortKey: 'timestamp', referenceComplete: true };
  it('passes the right slice', async () => {
    expect(found(pagesAgree.run(ok(list.slice(4, 8)), await context(), { ...facts, reference }))).toEqual([]);
  });
  it('compares only the part of a page the reference covers when the server holds more records', async () => {
    const server = records(20);
    const partial = exchange('getEventLog', { status: 200, body: server.slice(0, 12) });
    const facts2 = { skip: 8, limit: 8, idField: '_id', sortKey: 'timestamp', referenceComplete: false };
    expect(found(pagesAgree.run(ok(server.slice(8, 16)), await context(), { ...facts2, reference: partial }))).toEqual([]);
    expect(found(pagesAgree.run(ok(server.slice(9, 17)), await context(), { ...facts2, reference: partial }))[0]?.verdict).toBe('violation');
  });
  it('flags an ignored skip as a violation', async () => {
    const [f] = found(pagesAgree.run(ok(list.slice(0, 4)), await context(), { ...facts, reference }));
    expect(f).toMatchObject({ check: 'pages-agree', verdict: 'violation', citation: { ref: '4.4' } });
    expect(f?.message).toContain('position 0');
  });
  it('makes a different order of records with equal timestamps a note (the tie rule is a gap-fill)', async () => {
    const tied = list.map((r, i) => ({ ...r, timestamp: 1_756_497_678_000 + Math.floor(i / 2) * 1000 }));
    const ref = exchange('getEventLog', { status: 200, body: tied });
    const page = [tied[5], tied[4], tied[7], tied[6]];
    const [f] = found(pagesAgree.run(ok(page), await context(), { ...facts, reference: ref }));
    expect(f).toMatchObject({ verdict: 'note', citation: { source: 'gap-fill' } });
    expect(f?.citation.text).toMatch(/breaks ties by `_id`/);
  });
});

describe('sort-order', () => {
  const desc = [...list].reverse();
  it('passes ascending timestamps when no direction is given', async () => {
    expect(found(sortOrder.run(ok(list), await context(), { sortField: 'timestamp' }))).toEqual([]);
  });
  it('flags a descending answer to a request without sortDirection as a violation of the asc default', async () => {
    const [f] = found(sortOrder.run(ok(desc), await context(), { sortField: 'timestamp' }));
    expect(f).toMatchObject({ verdict: 'violation', citation: { source: 'spec', ref: '4.4' } });
    expect(f?.message).toContain('descending order');
    expect(f?.citation.text).toMatch(/asc\) is the default/);
  });
  it('flags an ignored sortDirection=desc', async () => {
    const [f] = found(sortOrder.run(ok(list), await context(), { sortField: 'timestamp', sortDirection: 'desc' }));
    expect(f?.verdict).toBe('violation');
  });
  it('makes a wrong order without sortField a note (the default field is a gap-fill)', async () => {
    const [f] = found(sortOrder.run(ok(desc), await context(), {}));
    expect(f?.verdict).toBe('note');
  });
  it('sorts nested fields and makes a case-insensitive string order a note', async () => {
    const names = ['alpha', 'Beta', 'gamma'].map((n, i) => trap(i, { entity: { entityId: 'e', entityType: 1, entityName: n } }));
    const [f] = found(sortOrder.run(ok(names), await context(), { sortField: 'entity.entityName', sortDirection: 'asc' }));
    expect(f?.verdict).toBe('note');
    expect(found(sortOrder.run(ok([names[1], names[0], names[2]]), await context(), { sortField: 'entity.entityName', sortDirection: 'asc' }))).toEqual([]);
  });
});

describe('inverse-order', () => {
  const plain = ok(list);
  it('passes the reverse order', async () => {
    expect(found(inverseOrder.run(ok([...list].reverse()), await context(), { sortField: 'timestamp', sortDirection: 'asc', plain }))).toEqual([]);
  });
  it('flags an ignored inverse as a violation', async () => {
    const [f] = found(inverseOrder.run(ok(list), await context(), { sortField: 'timestamp', sortDirection: 'asc', plain }));
    expect(f).toMatchObject({ verdict: 'violation', citation: { ref: '4.4' } });
  });
  it('makes another order a note (how inverse combines with sortDirection is a gap-fill)', async () => {
    const shuffled = [list[3], list[1], list[2], list[0]];
    const [f] = found(inverseOrder.run(ok(shuffled), await context(), { sortField: 'timestamp', sortDirection: 'asc', plain }));
    expect(f).toMatchObject({ verdict: 'note', citation: { source: 'gap-fill' } });
  });
});

describe('type-filter', () => {
  const traps = list.filter((r) => r.type === 'snmp-trap');
  const messages = list.filter((r) => r.type !== 'snmp-trap');
  it('passes only traps for type=1 and only messages for type=2', async () => {
    expect(found(typeFilter.run(ok(traps), await context(), { type: '1', referenceComplete: true, reference }))).toEqual([]);
    expect(found(typeFilter.run(ok(messages), await context(), { type: '2', referenceComplete: true, reference }))).toEqual([]);
  });
  it('flags an ignored type as a violation', async () => {
    const [f] = found(typeFilter.run(ok(list), await context(), { type: '1', referenceComplete: false, reference }));
    expect(f).toMatchObject({ check: 'type-filter', verdict: 'violation' });
    expect(f?.message).toBe('type=1 returned 4 of 12 records of type mqtt-message');
  });
  it('flags missing records of the type when the reference is complete', async () => {
    const [f] = found(typeFilter.run(ok(traps.slice(1)), await context(), { type: '1', referenceComplete: true, reference }));
    expect(f?.message).toMatch(/holds 8 of that type/);
  });
});

describe('time-range', () => {
  const from = list[2]?.timestamp ?? 0;
  const to = list[6]?.timestamp ?? 0;
  const facts = { from, to, referenceComplete: true };
  it('passes the records inside inclusive bounds', async () => {
    expect(found(timeRange.run(ok(list.slice(2, 7)), await context(), { ...facts, reference }))).toEqual([]);
  });
  it('flags records outside the bounds and missing inner records as violations', async () => {
    const [outside] = found(timeRange.run(ok(list.slice(0, 7)), await context(), { from, to, referenceComplete: false, reference }));
    expect(outside).toMatchObject({ verdict: 'violation' });
    const [missing] = found(timeRange.run(ok([list[2], list[6]]), await context(), { ...facts, reference }));
    expect(missing?.message).toMatch(/left out 3 records inside/);
    expect(missing?.verdict).toBe('violation');
  });
  it('makes exclusive bounds a note', async () => {
    const [f] = found(timeRange.run(ok(list.slice(3, 6)), await context(), { ...facts, reference }));
    expect(f).toMatchObject({ verdict: 'note', citation: { source: 'gap-fill' } });
  });
});

describe('filter-matches', () => {
  const facts = { field: 'agentId', value: 'agent-1', referenceComplete: true };
  const matching = list.filter((r) => r.agentId === 'agent-1');
  it('passes exactly the matching records', async () => {
    expect(found(filterMatches.run(ok(matching), await context(), { ...facts, reference }))).toEqual([]);
  });
  it('flags an ignored filter as a violation', async () => {
    const [f] = found(filterMatches.run(ok(list), await context(), { ...facts, reference }));
    expect(f).toMatchObject({ verdict: 'violation' });
  });
  it('makes a refused filter a note (the filter language is a gap-fill)', async () => {
    const [f] = found(filterMatches.run(ok({ status: 400, code: 'INVALID_FILTER', message: 'x' }, 400), await context(), { ...facts, reference }));
    expect(f).toMatchObject({ verdict: 'note', citation: { source: 'gap-fill' } });
  });
});

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
