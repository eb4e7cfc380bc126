import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readRateLimit } from '../../src/cli/fake-options.js';
import { anchorTime, integer, list, origin, yesNo } from '../../src/cli/flag.js';

describe('flag values', () => {
  it('integers within bounds', () => {
    const port = integer(0, 65535);
    expect(port('0')).toBe(0);
    expect(port('65535')).toBe(65535);
    for (const bad of ['65536', '-1', '1.5', 'eighty', '', '0x10']) expect(() => port(bad), bad).toThrow('expected an integer from 0 to 65535');
  });

  it('yes and no in their usual spellings', () => {
    for (const yes of ['yes', 'true', 'ON', '1', '']) expect(yesNo(yes), yes).toBe(true);
    for (const no of ['no', 'false', 'Off', '0']) expect(yesNo(no), no).toBe(false);
    expect(() => yesNo('maybe')).toThrow('expected yes or no');
  });

  it('lists from repeated flags and commas', () => {
    expect(list('a.json, b.json', ['x.json'])).toEqual(['x.json', 'a.json', 'b.json']);
    expect(() => list(' , ')).toThrow();
  });

  it('anchor times: now, ISO or epoch milliseconds', () => {
    const anchor = anchorTime(() => 1_800_000_000_000);
    expect(anchor('now')).toBe(1_800_000_000_000);
    expect(anchor('2025-09-01T00:00:00Z')).toBe(Date.UTC(2025, 8, 1));
    expect(anchor('1756684800000')).toBe(1_756_684_800_000);
    for (const bad of ['yesterday', '2025-13-45', '-5']) expect(() => anchor(bad), bad).toThrow(/expected "now"/);
  });

  it('origins: scheme, host and port, nothing more', () => {
    expect(origin('http://localhost:5173,https://ui.example.test/')).toEqual(['http://localhost:5173', 'https://ui.example.test']);
    for (const bad of ['localhost:5173', 'http://localhost:5173/app', 'ftp://x.test', '*']) expect(() => origin(bad), bad).toThrow(/not an origin/);
  });
});

describe('--rate-limit', () => {
  it('takes a preset name, or a JSON file of rules or of a preset, checked against the control document', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'rate-limit-'));
    const file = async (name: string, content: unknown) => {
      const path = join(dir, name);
      await writeFile(path, typeof content === 'string' ? content : JSON.stringify(content));
      return path;
    };
    for (const preset of ['lenient', 'strict', 'off']) expect(await readRateLimit(preset)).toBe(preset);
    const rules = [{ key: 'login', limit: 5, windowSeconds: 60, blockSeconds: 300 }];
    expect(await readRateLimit(await file('array.json', rules))).toEqual(rules);
    expect(await readRateLimit(await file('object.json', { rules }))).toEqual(rules);
    expect(await readRateLimit(await file('preset.json', { preset: 'strict' }))).toBe('strict');
    await expect(readRateLimit('medium')).rejects.toThrow(/--rate-limit medium: not lenient, strict or off, and not a readable JSON file of rules \(no such file\)/);
    await expect(readRateLimit(await file('broken.json', '[{'))).rejects.toThrow(/--rate-limit .*broken\.json/);
    await expect(readRateLimit(await file('bad.json', [{ key: 'ip', limit: 0, windowSeconds: 1, blockSeconds: 1 }]))).rejects.toThrow(/\/0\/limit must be >= 1/);
    await expect(readRateLimit(await file('unknown.json', [{ key: 'country', limit: 1, windowSeconds: 1, blockSeconds: 1 }]))).rejects.toThrow(/--rate-limit/);
  });
});
