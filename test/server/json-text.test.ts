import { describe, expect, it } from 'vitest';
import { arrayTextPart, createJsonText } from '../../src/server/json-text.js';
import { deepFreeze } from '../../src/shared/deep-freeze.js';

const record = (i: number) => ({ _id: `id-${i}`, payload: { text: `t${i}`, bindings: [{ oid: '1.3', value: i }] }, note: 'ü "quoted" \u2028' });

describe('createJsonText', () => {
  it('writes exactly the bytes of what JSON.stringify writes, for every kind of body', () => {
    const text = createJsonText();
    const frozen = [deepFreeze(record(1)), deepFreeze(record(2))];
    const bodies: unknown[] = [frozen, [record(3), null, 7, 'x', undefined, [1, 2]], [], { a: 1 }, 'plain', 42, null, [frozen[0], frozen[0]]];
    for (const body of bodies) {
      expect(text(body).toString('utf8')).toBe(JSON.stringify(body));
      expect(text(body).toString('utf8'), 'a second time, from the cache').toBe(JSON.stringify(body));
    }
  });

  it('keeps the text of deep-frozen items only, so a changed object is never written stale', () => {
    const text = createJsonText();
    const shallow = Object.freeze({ _id: 'a', payload: { text: 'before' } });
    const mutable = { _id: 'b', text: 'before' };
    text([shallow, mutable]);
    expect(text.cached).toBe(0);
    shallow.payload.text = 'after';
    mutable.text = 'after';
    expect(text([shallow, mutable]).toString('utf8')).toBe(JSON.stringify([shallow, mutable]));
    expect(text([shallow, mutable]).toString('utf8')).toContain('after');
    text([deepFreeze(record(4))]);
    expect(text.cached).toBe(1);
  });

  it('keeps at most maxItems texts, dropping the oldest', () => {
    const text = createJsonText(3);
    const items = [1, 2, 3, 4, 5].map((i) => deepFreeze(record(i)));
    expect(text(items).toString('utf8')).toBe(JSON.stringify(items));
    expect(text.cached).toBe(3);
    expect(text(items.slice(0, 2)).toString('utf8')).toBe(JSON.stringify(items.slice(0, 2)));
  });

  it('reuses the text of a page only for the same frozen items in the same order', () => {
    const text = createJsonText();
    const items = [1, 2, 3, 4].map((i) => deepFreeze(record(i)));
    const page = items.slice(0, 3);
    expect(text(page).toString('utf8')).toBe(JSON.stringify(page));
    expect(text.pages).toBe(1);
    const again = text([...page]);
    expect(again.toString('utf8')).toBe(JSON.stringify(page));
    expect(again, 'the kept bytes themselves').toBe(text(page));
    // Same first item, other items or another length: written afresh, and right.
    for (const other of [items.slice(0, 2), [items[0], items[3], items[2]], items]) {
      expect(text(other).toString('utf8')).toBe(JSON.stringify(other));
    }
    const withMutable = [items[1], { _id: 'm', text: 'before' }];
    text(withMutable);
    (withMutable[1] as { text: string }).text = 'after';
    expect(text(withMutable).toString('utf8')).toContain('after');
  });

  it('keeps at most maxPageBytes of page texts', () => {
    const items = [1, 2, 3, 4, 5, 6].map((i) => deepFreeze(record(i)));
    const one = Buffer.byteLength(JSON.stringify([items[0]]));
    const text = createJsonText(100, one * 2 + 10);
    for (const item of items) text([item]);
    expect(text.pages).toBe(2);
    expect(text([items[0]]).toString('utf8')).toBe(JSON.stringify([items[0]]));
  });

  it('writes an array in parts that join to the text JSON.stringify writes, whatever their size; item() keeps no text of its own', () => {
    const text = createJsonText();
    const items = [deepFreeze(record(1)), null, 7, deepFreeze(record(2)), 'x', undefined, [1, 2]];
    for (const body of [[], [deepFreeze(record(3))], items]) {
      for (const minBytes of [1, 10, 60, 1000, Infinity]) {
        const parts: Buffer[] = [];
        for (let from = 0; from <= body.length; ) {
          const part = arrayTextPart(body, text.item, from, minBytes);
          expect(part.next, 'each part moves on').toBeGreaterThan(from);
          parts.push(part.bytes);
          from = part.next;
        }
        expect(Buffer.concat(parts).toString('utf8')).toBe(JSON.stringify(body));
        if (minBytes === Infinity) expect(parts).toHaveLength(1);
        if (minBytes === 1) expect(parts).toHaveLength(Math.max(1, body.length));
      }
    }
    expect(text.cached, 'a streamed page pushes out no kept text').toBe(0);
    const kept = text(items[0]);
    expect(text.cached).toBe(1);
    expect(text.item(items[0]), 'a kept text is reused').toBe(kept);
  });
});
