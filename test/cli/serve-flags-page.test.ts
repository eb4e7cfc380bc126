import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { Flag } from '../../src/cli/flag.js';
import { serveFlags } from '../../src/cli/serve-flags.js';

// The docs' table of `serve` flags is the flag definitions, written out: a new flag or a
// changed default, range or text fails here until docs/serve-flags.md shows it.
const page = readFileSync(new URL('../../docs/serve-flags.md', import.meta.url), 'utf8');
const HEADER = '| Flag | Environment variable | Default | What it does |';

const cell = (text: string) => text.replaceAll('|', '\\|');
const code = (text: string) => `\`${cell(text)}\``;

function row(flag: Flag, flags: readonly Flag[]): string {
  const negation = flags.find((f) => f.negates && f.name === flag.name);
  const names = [flag, ...(negation ? [negation] : [])].map((f) => code(f.flags)).join(', ');
  const shown = flag.defaultDescription ?? String(flag.defaultValue);
  return `| ${names} | ${flag.env ? code(flag.env) : ''} | ${cell(shown)} | ${cell(flag.description)} |`;
}

/** The table as the flag definitions give it. */
function flagTable(flags: readonly Flag[]): string {
  return [HEADER, '|---|---|---|---|', ...flags.filter((f) => !f.negates).map((f) => row(f, flags))].join('\n');
}

/** The table as the page has it. */
function pageTable(): string {
  const start = page.indexOf(HEADER);
  const end = page.indexOf('\n\n', start);
  return page.slice(start, end);
}

describe("the table of serve flags in docs/serve-flags.md", () => {
  it('is the flag definitions', () => {
    expect(pageTable(), `docs/serve-flags.md should hold:\n${flagTable(serveFlags)}\n`).toBe(flagTable(serveFlags));
  });

  it('notices a drifted default', () => {
    const drifted = serveFlags.map((f) => (f.name === 'records' ? { ...f, description: 'generated event log records (up to 1,000,000)' } : f));
    expect(flagTable(drifted)).not.toBe(pageTable());
  });
});
