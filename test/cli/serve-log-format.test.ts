// `serve` picks its log format by where stdout goes: a terminal gets pretty lines, a pipe JSON
// (test/cli/serve-log-lines.test.ts); `--log-format json` keeps JSON on a terminal too. The
// terminal is util-linux's `script`, which runs the command on a pseudo-terminal.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { createSpecValidator, loadSpec } from '../../src/spec/index.js';

const bin = fileURLToPath(new URL('../../bin/monitoring-api-kit.js', import.meta.url));
const validator = createSpecValidator(await loadSpec());
const basic = `Basic ${Buffer.from('admin:admin-password').toString('base64')}`;
const SCRIPT = '/usr/bin/script';

async function onTerminal(flags: string[], until: (output: string) => boolean): Promise<string> {
  const command = [process.execPath, bin, 'serve', '--port', '0', '--records', '10', ...flags].map((part) => `'${part}'`).join(' ');
  // Its own process group, so that the fake under `script` ends with it.
  const child: ChildProcess = spawn(SCRIPT, ['-qfec', command, '/dev/null'], { stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  try {
    const deadline = Date.now() + 30_000;
    while (!/API base URL: (http:\S+)/.test(output) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    const base = /API base URL: (http:\S+)/.exec(output)![1]!;
    const answer = await fetch(`${base}/users/current?api-token=not-a-real-token-123`, { headers: { authorization: basic } });
    expect(validator.checkResponse('getCurrentUser', { status: answer.status, headers: Object.fromEntries(answer.headers), body: await answer.text() })).toEqual([]);
    const ok = await fetch(`${base}/users/current`, { headers: { authorization: basic } });
    expect(validator.checkResponse('getCurrentUser', { status: ok.status, headers: Object.fromEntries(ok.headers), body: await ok.text() })).toEqual([]);
    const shownBy = Date.now() + 5_000;
    while (!until(output) && Date.now() < shownBy) await new Promise((r) => setTimeout(r, 20));
    return output.replace(/\r/g, '');
  } finally {
    if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
  }
}

describe.skipIf(!existsSync(SCRIPT))('serve on a terminal', () => {
  it('writes one readable line per request by default (colours and all), never a secret', async () => {
    const output = await onTerminal([], (text) => /users\/current 200/.test(text));
    const plain = output.replace(/\u001b\[[\d;]*m/g, '');
    expect(plain).toMatch(/\n\[\d\d:\d\d:\d\d\.\d{3}\] INFO: GET \/node\/api\/users\/current\?api-token=\[redacted\] 401 \d+\.\d ms\n/);
    expect(plain).toMatch(/\n\[[\d:.]+\] INFO: GET \/node\/api\/users\/current 200 \d+\.\d ms admin\n/);
    expect(output).toContain('\u001b[');
    expect(output).not.toContain('not-a-real-token-123');
    expect(output).not.toContain('"msg":"request completed"');
  }, 60_000);

  it('writes JSON lines with --log-format json', async () => {
    const output = await onTerminal(['--log-format', 'json'], (text) => text.includes('"statusCode":200'));
    const lines = output.split('\n').filter((line) => line.startsWith('{"level"')).map((line) => JSON.parse(line) as { msg: string; user?: string });
    expect(lines.filter((l) => l.msg === 'request completed').map((l) => l.user)).toEqual([undefined, 'admin']);
    expect(output).not.toContain('not-a-real-token-123');
  }, 60_000);
});
