import { beforeAll, describe, expect, it } from 'vitest';
import { generateBlocks } from '../../src/seed/generate-blocks.js';
import { DEFAULT_END_TIME, DEFAULT_SPAN_MS } from '../../src/seed/generate-events.js';
import { createSpecValidator, loadSpec, type SpecValidator } from '../../src/spec/index.js';

describe('generateBlocks', () => {
  let validator: SpecValidator;
  beforeAll(async () => {
    validator = createSpecValidator(await loadSpec());
  });

  const users = [
    { id: '5867948233835d9661c56dc8', login: 'admin' },
    { id: '5867948233835d9661c56dca', login: 'operator' },
  ];

  it('makes repeatable, conforming block records of every kind, in time order', () => {
    const blocks = generateBlocks({ users });
    expect(blocks).toHaveLength(40);
    expect(JSON.stringify(generateBlocks({ users }))).toBe(JSON.stringify(blocks));
    expect(JSON.stringify(generateBlocks({ seed: 9, users }))).not.toBe(JSON.stringify(blocks));
    for (const b of blocks) {
      expect(validator.validateNamed('BlockedRequest', b)).toEqual([]);
      expect(b.timestamp).toBeGreaterThanOrEqual(DEFAULT_END_TIME - DEFAULT_SPAN_MS);
      expect(b.timestamp).toBeLessThanOrEqual(DEFAULT_END_TIME);
      expect([60, 300, 900, 3600]).toContain(b.ttl);
    }
    for (const field of ['ip', 'login', 'user', 'uri'] as const) expect(blocks.some((b) => b[field]), field).toBe(true);
    expect(blocks.some((b) => b.ip && !b.login && !b.user && !b.uri)).toBe(true);
    expect(blocks.some((b) => b.uri && !b.ip && !b.login && !b.user)).toBe(true);
    const times = blocks.map((b) => b.timestamp as number);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(generateBlocks({ count: 3 })).toHaveLength(3);
  });

  it('names only the users given, by their own id and login; without users, blocks by address and URI only', () => {
    const named = generateBlocks({ users }).filter((b) => b.login !== undefined || b.user !== undefined);
    expect(named.length).toBeGreaterThan(0);
    for (const b of named) expect(users).toContainEqual({ id: b.user, login: b.login });
    expect(generateBlocks().every((b) => b.login === undefined && b.user === undefined)).toBe(true);
  });
});
