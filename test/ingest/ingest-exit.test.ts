import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const script = fileURLToPath(new URL('./start-and-close.script.ts', import.meta.url));

describe('closing the ingesters', () => {
  it('leaves no open handle: a process that used both exits by itself', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', script], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    // A guard, not a timing assertion: a hanging child would otherwise hang the suite.
    const guard = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const [code, signal] = (await once(child, 'exit')) as [number | null, string | null];
    clearTimeout(guard);
    expect({ code, signal, err }).toEqual({ code: 0, signal: null, err: '' });
    expect(out).toBe('["mqtt-message","snmp-trap"]');
  });
});
