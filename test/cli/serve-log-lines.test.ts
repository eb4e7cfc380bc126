// `serve` at the default level writes one JSON line per answered request to stdout, in blocks:
// a line shows within a fraction of a second while the fake keeps running, and the lines of
// requests answered just before SIGTERM are all written before the process ends. (Lines are
// written 100 ms after the first of a block; the test allows seconds for a loaded machine.)
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createSpecValidator, loadSpec } from '../../src/spec/index.js';

const bin = fileURLToPath(new URL('../../bin/monitoring-api-kit.js', import.meta.url));
const validator = createSpecValidator(await loadSpec());
const basic = `Basic ${Buffer.from('admin:admin-password').toString('base64')}`;

const requestLines = (output: string) =>
  output
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { msg?: string; reqId?: string; req?: { url?: string }; res?: { statusCode?: number } })
    .filter((line) => line.msg === 'request completed');

describe('serve logs at the default level', () => {
  it('one line per request, shown while running, none lost at SIGTERM', async () => {
    const child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--records', '100'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const deadline = Date.now() + 30_000;
      while (!/API base URL: (http:\S+)/.test(output) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      const base = /API base URL: (http:\S+)/.exec(output)![1]!;

      const first = await fetch(`${base}/users/current?api-token=not-a-real-token-123`, { headers: { authorization: basic } });
      expect(validator.checkResponse('getCurrentUser', { status: first.status, headers: Object.fromEntries(first.headers), body: await first.text() })).toEqual([]);
      // Shown while the fake keeps running.
      const shownBy = Date.now() + 5000;
      while (requestLines(output).length < 1 && Date.now() < shownBy) await new Promise((r) => setTimeout(r, 10));
      expect(requestLines(output)).toHaveLength(1);
      expect(requestLines(output)[0]!.req!.url).toBe('/node/api/users/current?api-token=[redacted]');
      expect(output).not.toContain('not-a-real-token-123');

      for (let i = 0; i < 50; i++) {
        const answer = await fetch(`${base}/users/current`, { headers: { authorization: basic } });
        expect(answer.status).toBe(200);
        await answer.arrayBuffer();
      }
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      const lines = requestLines(output);
      expect(lines).toHaveLength(51);
      expect(new Set(lines.map((l) => l.reqId)).size).toBe(51);
      expect(lines.slice(1).every((l) => l.res?.statusCode === 200)).toBe(true);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 60_000);
});
