import { describe, expect, it } from 'vitest';
import { compareExchanges, normalise, shapeOf, withDifferences } from '../../src/contract/differential.js';
import { resultOf } from './helpers/result.js';
import { exchange, records, trap } from './helpers/synthetic.js';

const keyed = (key: string, e: ReturnType<typeof exchange>) => ({ ...e, key });

describe('differential comparison', () => {
  it('normalises ids, UUIDs and timestamps, and describes shapes', () => {
    expect(normalise({ _id: '5867948233835d9661c56dc8', t: 1756497678991, n: 3, s: '32925106-8c56-41d1-8713-410f203e8ce0' })).toEqual({ _id: '<id>', t: '<time>', n: 3, s: '<uuid>' });
    expect(shapeOf({ b: [1, 'x'], a: null })).toBe('{a:null,b:[number|string]}');
  });

  it('pairs exchanges by step and reports status, shape and meaning differences, not ids or times', () => {
    const first = [
      keyed('a', exchange('getEventLog', { status: 200, body: [trap(1)] })),
      keyed('b', exchange('getEventLog', { status: 200, body: [trap(1)] })),
      keyed('c', exchange('getEventLog', { status: 200, body: [trap(1)] })),
      keyed('d', exchange('getEventLog', { status: 200, body: [trap(1)] })),
      keyed('only-first', exchange('getEventLog', { status: 200, body: [] })),
    ];
    const second = [
      keyed('a', exchange('getEventLog', { status: 200, body: [trap(2, { payload: trap(1).payload, agentId: trap(1).agentId, entity: { ...trap(2).entity, entityName: trap(1).entity.entityName } })] })),
      keyed('b', exchange('getEventLog', { status: 400, body: {} })),
      keyed('c', exchange('getEventLog', { status: 200, body: [{ ...trap(1), extra: true }] })),
      keyed('d', exchange('getEventLog', { status: 200, body: [trap(1, { agentId: 'someone-else' })] })),
    ];
    const { differences, unpaired } = compareExchanges(first, second);
    expect(differences.map((d) => [d.key, d.kind])).toEqual([
      ['b', 'status'],
      ['c', 'shape'],
      ['d', 'meaning'],
    ]);
    expect(unpaired).toBe(1);
  });

  it('adds the differences to the first result as notes of the check "differs"', async () => {
    const a = await resultOf([{ exchange: keyed('x', exchange('getEventLog', { status: 200, body: records(2) })) }]);
    const b = await resultOf([{ exchange: keyed('x', exchange('getEventLog', { status: 404, body: { status: 404, code: 'ROUTE_NOT_FOUND', message: 'no' } })) }]);
    const merged = withDifferences(a, b);
    const differs = merged.outcomes.find((o) => o.check === 'differs');
    expect(differs?.failures[0]).toMatchObject({ verdict: 'note', operationId: 'getEventLog' });
    expect(differs?.failures[0]?.message).toMatch(/status differs at step x: .* gave 200, .* gave 404/);
    expect(merged.notes).toBe(a.notes + 1);
    expect(merged.exitCode).toBe(0);
    expect(withDifferences({ ...a, strict: true }, b).exitCode).toBe(1);
  });
});
