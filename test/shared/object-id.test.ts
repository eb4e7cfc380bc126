import { describe, expect, it } from 'vitest';
import { createObjectIdGenerator } from '../../src/shared/object-id.js';

describe('ObjectIds', () => {
  it('lay out seconds, machine bytes and counter as 24 lowercase hex characters', () => {
    const id = createObjectIdGenerator(Uint8Array.from([0x33, 0x83, 0x5d, 0x96, 0x61]), 0xc56dc8)(0x5867_9482 * 1000);
    expect(id).toBe('5867948233835d9661c56dc8');
  });

  it('are unique from one generator and repeatable from the same machine bytes', () => {
    const machine = Uint8Array.from([1, 2, 3, 4, 5]);
    const a = createObjectIdGenerator(machine);
    const b = createObjectIdGenerator(machine);
    const first = [a(1_000), a(1_000), a(2_000)];
    expect(new Set(first).size).toBe(3);
    expect([b(1_000), b(1_000), b(2_000)]).toEqual(first);
    for (const id of first) expect(id).toMatch(/^[0-9a-f]{24}$/);
  });
});
