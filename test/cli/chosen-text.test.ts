import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveBin, type ServedBin } from '../helpers/serve-bin.js';

// Text a users file or a recorded server chose (logins, permissions) reaches the terminal without
// its control characters and the docs page as text, never as markup.

const ESC = '\u001b';
const LOGIN = `ops${ESC}[2J${ESC}]0;owned${ESC}\\`;
const PERMISSION = `<img src=x onerror=alert(1)>|cell${ESC}[31m`;

let served: ServedBin;
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'chosen-text-'));
  const users = join(dir, 'users.json');
  writeFileSync(users, JSON.stringify([{ login: LOGIN, password: `pw${ESC}[1Aover`, permissions: [PERMISSION, 'manage-users'] }]));
  served = await serveBin(['--users', users]);
}, 60_000);
afterAll(() => served?.stop());

describe('text a file or a server chose', () => {
  it('reaches the terminal with its control characters shown as escapes', () => {
    const banner = served.output();
    expect(banner).not.toContain(ESC);
    expect(banner).toContain('ops\\u001b[2J\\u001b]0;owned\\u001b\\');
    expect(banner).toContain('<img src=x onerror=alert(1)>|cell\\u001b[31m, manage-users');
  });

  it('reaches the docs page as code: no markup, no control character, no cell of its own', async () => {
    const origin = new URL(served.baseUrl).origin;
    const document = (await (await fetch(`${origin}/docs/json`)).json()) as { info: { description: string } };
    const row = document.info.description.split('\n').find((line) => line.includes('ops'));
    expect(row).toBe('| `ops\\u001b[2J\\u001b]0;owned\\u001b\\` | `pw\\u001b[1Aover` | `<img src=x onerror=alert(1)>\\|cell\\u001b[31m`, `manage-users` |');
  });
});
