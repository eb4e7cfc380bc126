// The walk the server's mask and the runner's credential masks share: which places of a value
// its schema marks, and where it stops reading.
import { describe, expect, it } from 'vitest';
import { markedValues } from '../../src/spec/index.js';

const walk = { mark: 'x-secret', maxDepth: 3 };
const places = (value: unknown, schema: Record<string, unknown>) => [...markedValues(value, schema, walk)];

// An object schema nested `levels` deep under `child`, with a marked `token` at the bottom.
const nested = (levels: number): Record<string, unknown> =>
  levels === 0 ? { type: 'object', properties: { token: { type: 'string', 'x-secret': true } } } : { type: 'object', properties: { child: nested(levels - 1) } };
const nestedValue = (levels: number): unknown => (levels === 0 ? { token: 't' } : { child: nestedValue(levels - 1) });

describe('markedValues', () => {
  it('reports the marked places in order, through properties, additionalProperties, items, prefixItems and any branch', () => {
    const secret = { type: 'string', 'x-secret': true };
    const schema = {
      type: 'object',
      properties: {
        pair: { type: 'array', prefixItems: [{ type: 'string' }, secret], items: false },
        list: { type: 'array', items: { anyOf: [{ type: 'integer' }, { allOf: [secret] }] } },
      },
      additionalProperties: { oneOf: [{ type: 'object' }, secret] },
    };
    const value = { pair: ['a', 'b'], list: [1, 'c'], other: { x: 1 } };
    expect(places(value, schema)).toEqual([
      { kind: 'marked', path: ['pair', 1], value: 'b' },
      { kind: 'marked', path: ['list', 0], value: 1 },
      { kind: 'marked', path: ['list', 1], value: 'c' },
      { kind: 'marked', path: ['other'], value: { x: 1 } },
    ]);
  });

  it('reports the value itself when its schema is marked, and nothing when the schema marks nothing', () => {
    expect(places('t', { type: 'string', 'x-secret': true })).toEqual([{ kind: 'marked', path: [], value: 't' }]);
    expect(places({ token: 't' }, { type: 'object', properties: { token: { type: 'string' } } })).toEqual([]);
  });

  it('reads maxDepth levels: a marked place there is reported, an object or array below it is too deep to judge', () => {
    expect(places(nestedValue(2), nested(2))).toEqual([{ kind: 'marked', path: ['child', 'child', 'token'], value: 't' }]);
    expect(places(nestedValue(3), nested(3))).toEqual([{ kind: 'too-deep', path: ['child', 'child', 'child'], value: { token: 't' } }]);
    // The dereferenced document may be cyclic: the walk ends all the same.
    const cyclic: { properties: Record<string, unknown> } = { properties: { token: { 'x-secret': true } } };
    cyclic.properties.child = cyclic;
    expect(places(nestedValue(5), cyclic)).toEqual([{ kind: 'too-deep', path: ['child', 'child', 'child'], value: nestedValue(2) }]);
    // A plain value at the limit holds nothing to hide.
    const plain = { type: 'object', properties: { a: { properties: { b: { properties: { c: {} } } } }, s: { 'x-secret': true } } };
    expect(places({ a: { b: { c: 1 } } }, plain)).toEqual([]);
  });

  it('is lazy: a caller that has read enough reads no further', () => {
    const schema = { type: 'array', items: { type: 'string', 'x-secret': true } };
    const value = ['a'];
    Object.defineProperty(value, 1, { enumerable: true, get: () => expect.unreachable('read past what the caller asked for') });
    const walked = markedValues(value, schema, walk);
    expect(walked.next().value).toEqual({ kind: 'marked', path: [0], value: 'a' });
    walked.return();
  });
});
