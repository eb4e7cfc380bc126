import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

// `--journal-size`'s bound is the control document's `x-max-journal-size`: with a copy of the
// document that says 500 in the kit's place, --help says so and the flag takes no more.
vi.mock('../../src/spec/paths.js', async (original) => {
  const paths = await original<typeof import('../../src/spec/paths.js')>();
  const { copyFileSync, mkdtempSync, readFileSync, writeFileSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { join } = await import('node:path');
  const dir = mkdtempSync(join(tmpdir(), 'journal-size-flag-'));
  copyFileSync(paths.monitoringApiPath, join(dir, 'monitoring-api.yaml'));
  const kitText = readFileSync(paths.controlApiPath, 'utf8');
  // The default stays within the bound.
  let text = kitText;
  for (const [key, was, now] of [['x-max-journal-size', 100000, 500], ['x-default-journal-size', 1000, 200]] as const) {
    const line = new RegExp(`^( +)${key}: ${was}\\n`, 'm');
    if (!line.test(text)) throw new Error(`the kit's control document states no ${key}: ${was}`);
    text = text.replace(line, `$1${key}: ${now}\n`);
  }
  writeFileSync(join(dir, 'control-api.yaml'), text);
  return { ...paths, controlApiPath: join(dir, 'control-api.yaml') };
});

const { createProgram } = await import('../../src/cli/program.js');
const { controlApiPath } = await import('../../src/spec/paths.js');
afterAll(() => rmSync(dirname(controlApiPath), { recursive: true, force: true }));

describe('--journal-size', () => {
  const serve = createProgram().commands.find((c) => c.name() === 'serve')!;
  const option = serve.options.find((o) => o.long === '--journal-size')!;

  it("is bounded in --help by the control document's x-max-journal-size", () => {
    const help = serve.helpInformation().replace(/\s+/g, ' ');
    expect(help).toContain('and the /__inspector page (up to 500; 0 switches the journal off)');
  });

  it('takes up to that many requests, and no more', () => {
    expect(option.parseArg!('500', undefined)).toBe(500);
    expect(option.parseArg!('0', undefined)).toBe(0);
    for (const value of ['501', '100000']) expect(() => option.parseArg!(value, undefined), value).toThrow('expected an integer from 0 to 500');
  });
});
