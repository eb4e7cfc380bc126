import { describe, expect, it } from 'vitest';
import { compareExchanges, normalise, withDifferences, driftOf } from '../../src/contract/differential.js';
import { resultOf } from './helpers/result.js';
import { exchange, records, trap } from './helpers/synthetic.js';

const keyed = (key: string, e: ReturnType<typeof exchange>) => ({ ...e, key });

describe('drift between two answers', () => {
  it('normalises ids, UUIDs and timestamps', () => {
    expect(normalise({ _id: '5867948233835d9661c56dc8', t: 1756497678991, n: 3, s: '32925106-8c56-41d1-8713-410f203e8ce0' })).toEqual({ _id: '<id>', t: '<time>', n: 3, s: '<uuid>' });
  });

  it('tells a status, a missing field, another type, another order and another value apart', () => {
    const [a, b, c] = [trap(1), trap(2), trap(3)];
    const { text: _t, ...noText } = a.payload;
    expect(driftOf({ status: 200, json: [a] }, { status: 404, json: {} })).toEqual([{ kind: 'status', path: '', first: '200', second: '404' }]);
    expect(driftOf({ status: 200, json: [a, b] }, { status: 200, json: [{ ...a, payload: noText }, b] })).toEqual([{ kind: 'field-missing', path: '/0/payload/text', first: 'present', second: 'missing' }]);
    expect(driftOf({ status: 200, json: [a] }, { status: 200, json: [{ ...a, payload: noText }] })).toEqual([{ kind: 'field-missing', path: '/[]/payload/text', first: 'present', second: 'missing' }]);
    expect(driftOf({ status: 200, json: [a] }, { status: 200, json: [{ ...a, extra: 1 }] })).toEqual([{ kind: 'field-missing', path: '/[]/extra', first: 'missing', second: 'present' }]);
    expect(driftOf({ status: 200, json: [a] }, { status: 200, json: [{ ...a, timestamp: String(a.timestamp) }] })).toEqual([{ kind: 'type', path: '/[]/timestamp', first: 'number', second: 'string' }]);
    // A field of another type is told once, not again as the fields under it.
    expect(driftOf({ status: 200, json: [a] }, { status: 200, json: [{ ...a, payload: 'text' }] })).toEqual([{ kind: 'type', path: '/[]/payload', first: 'object', second: 'string' }]);
    expect(driftOf({ status: 200, json: [a, b, c] }, { status: 200, json: [c, b, a] })).toMatchObject([{ kind: 'order', path: '/0' }]);
    expect(driftOf({ status: 200, json: [a, b] }, { status: 200, json: [a, { ...b, agentId: 'other' }] })).toEqual([{ kind: 'value', path: '/1/agentId', first: '"agent-2"', second: '"other"' }]);
    expect(driftOf({ status: 200, json: [a, b] }, { status: 200, json: [a] })).toEqual([{ kind: 'value', path: '', first: '2 item(s)', second: '1 item(s)' }]);
    // An empty list says nothing of its items' fields.
    expect(driftOf({ status: 200, json: [] }, { status: 200, json: [a] })).toEqual([{ kind: 'value', path: '', first: '0 item(s)', second: '1 item(s)' }]);
    // Other ids and timestamps are no drift.
    expect(driftOf({ status: 200, json: [a] }, { status: 200, json: [{ ...a, _id: trap(9)._id, timestamp: a.timestamp + 5 }] })).toEqual([]);
  });

  it('pairs exchanges by step and counts the steps compared and not', () => {
    const first = [
      keyed('a', exchange('getEventLog', { status: 200, body: [trap(1)] })),
      keyed('b', exchange('getEventLog', { status: 200, body: [trap(1)] })),
      keyed('c', exchange('getEventLog', { status: 200, body: [trap(1)] })),
      keyed('only-first', exchange('getEventLog', { status: 200, body: [] })),
    ];
    const second = [
      keyed('a', exchange('getEventLog', { status: 200, body: [trap(1)] })),
      keyed('b', exchange('getEventLog', { status: 400, body: {} })),
      keyed('c', exchange('getEventLog', { status: 200, body: [{ ...trap(1), extra: true }] })),
    ];
    const { differences, compared, unpaired } = compareExchanges(first, second);
    expect(differences.map((d) => [d.key, d.kind])).toEqual([
      ['b', 'status'],
      ['c', 'field-missing'],
    ]);
    expect([compared, unpaired]).toEqual([3, 1]);
  });

  it('adds one note per operation and kind, and the drift report grouped by kind', async () => {
    const a = await resultOf([
      { exchange: keyed('x', exchange('getEventLog', { status: 200, body: records(2) })) },
      { exchange: keyed('y', exchange('getEventLog', { status: 200, body: records(2) })) },
    ]);
    const b = await resultOf([
      { exchange: keyed('x', exchange('getEventLog', { status: 404, body: { status: 404, code: 'ROUTE_NOT_FOUND', message: 'no' } })) },
      { exchange: keyed('y', exchange('getEventLog', { status: 404, body: { status: 404, code: 'ROUTE_NOT_FOUND', message: 'no' } })) },
    ]);
    const merged = withDifferences(a, b);
    const differs = merged.outcomes.find((o) => o.check === 'differs');
    expect(differs?.failures).toHaveLength(1);
    expect(differs?.failures[0]).toMatchObject({ verdict: 'note', operationId: 'getEventLog' });
    expect(differs?.failures[0]?.message).toMatch(/^status differs at step x \(and 1 more\): .* gave 200, .* gave 404$/);
    expect(merged.drift).toMatchObject({ compared: 2, unpaired: 0, groups: [{ kind: 'status', title: 'status differs', count: 2, example: { step: 'x', operationId: 'getEventLog', first: '200', second: '404' } }] });
    expect(merged.notes).toBe(a.notes + 1);
    expect(merged.exitCode).toBe(0);
    expect(withDifferences({ ...a, strict: true }, b).exitCode).toBe(1);
  });
});

describe('drift of a hostile answer', () => {
  it('stays small: at most 20 differences an answer, whatever its number of odd fields', () => {
    const wide = Object.fromEntries(Array.from({ length: 12_000 }, (_, i) => [`k${i}`, i]));
    const drifts = driftOf({ status: 200, json: {} }, { status: 200, json: wide });
    expect(drifts).toHaveLength(20);
    expect(drifts.every((d) => d.kind === 'field-missing' && d.first === 'missing')).toBe(true);
  });
});
