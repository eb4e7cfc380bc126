import { describe, expect, it } from 'vitest';
import { inverseOrder } from '../../../src/contract/checks/inverse-order.js';
import { sortOrder } from '../../../src/contract/checks/sort-order.js';
import { context, exchange, found, trap } from '../helpers/synthetic.js';

// The sort checks use the fake's MongoDB order (src/shared/mongo-order.ts), so a server that
// sorts as MongoDB does passes them.
const ok = (body: unknown) => exchange('getEventLog', { status: 200, body });
const named = (names: string[]) => names.map((n, i) => trap(i, { entity: { entityId: 'e', entityType: 1, entityName: n } }));
const byName = { sortField: 'entity.entityName', sortDirection: 'asc' } as const;

describe('sort checks in MongoDB order', () => {
  it('take strings by code point: U+FF01 before U+1F600', async () => {
    expect(found(sortOrder.run(ok(named(['\uFF01', '\u{1F600}'])), await context(), byName))).toEqual([]);
    const [f] = found(sortOrder.run(ok(named(['\u{1F600}', '\uFF01'])), await context(), byName));
    expect(f?.verdict).toBe('violation');
  });

  it('sort an array field by its smallest element ascending and its largest descending', async () => {
    const withTags = (tags: unknown[][]) => tags.map((t, i) => trap(i, { payload: { text: 'x', tags: t } as never }));
    const field = { sortField: 'payload.tags' };
    expect(found(sortOrder.run(ok(withTags([[], [1, 9], [5]])), await context(), { ...field, sortDirection: 'asc' }))).toEqual([]);
    expect(found(sortOrder.run(ok(withTags([[1, 9], [5], []])), await context(), { ...field, sortDirection: 'desc' }))).toEqual([]);
    const [f] = found(sortOrder.run(ok(withTags([[5], [1, 9]])), await context(), { ...field, sortDirection: 'asc' }));
    expect(f?.verdict).toBe('violation');
  });

  it('read an inverted order by the same keys', async () => {
    const plain = ok(named(['\uFF01', '\u{1F600}']));
    expect(found(inverseOrder.run(ok(named(['\u{1F600}', '\uFF01'])), await context(), { ...byName, plain }))).toEqual([]);
  });
});
