// A server that answers every request with a huge body, a deeply nested one or one of countless
// small values: the runner keeps a bounded part of each answer, parses within bounds, and its
// whole process stays under about 300 MB RSS (measured from /proc in a child process).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { check, hostileServer, type HostileServer } from './hostile-server.js';

const bin = fileURLToPath(new URL('../../../bin/monitoring-api-kit.js', import.meta.url));
const MiB = 1024 * 1024;
const LIMIT_KB = 300 * 1024;

const bodies = [
  // Under the old 32 MiB cut, and kept whole for every exchange.
  Buffer.from(`[${'0,'.repeat(12 * MiB)}0]`),
  // Deep enough to overflow any recursive walk.
  Buffer.from(`${'{"a":'.repeat(100_000)}1${'}'.repeat(100_000)}`),
  // Just within the bounds the runner parses, and a dozen schema errors for each record.
  Buffer.from(`[${'{"type":1},'.repeat(3_990)}{"type":1}]`),
  // A megabyte of records each wrong in several fields (whitespace costs no value): about 90,000 schema errors.
  Buffer.from(`[${Array.from({ length: 6_000 }, () => `{"type":1}${' '.repeat(160)}`).join(',')}]`),
  // One string of almost a megabyte.
  Buffer.from(JSON.stringify({ message: 'x'.repeat(MiB - 100) })),
];
let server: HostileServer;
beforeAll(async () => {
  let n = 0;
  server = await hostileServer((_req, res) => {
    const body = bodies[n++ % bodies.length] as Buffer;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length) });
    res.end(body);
  });
});
afterAll(() => server.close());

/** Peak resident set of a process so far, in kB (Linux). */
function peakKb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
}

describe.skipIf(!existsSync('/proc/self/status'))('the runner against a server of huge answers', () => {
  it('stays under about 300 MB RSS, finishes and reports', async () => {
    const child = spawn(process.execPath, [bin, 'check', '--base-url', server.url, '--login', 'admin', '--password', 'admin-secret-pw', '--quiet', '--max-duration', '120'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    let peak = 0;
    const sampler = setInterval(() => {
      try {
        peak = Math.max(peak, peakKb(child.pid ?? 0));
        // Far over the bound: no need to wait for the end (or for the machine to swap).
        if (peak > 4 * LIMIT_KB) child.kill('SIGKILL');
      } catch {
        // The process has just ended.
      }
    }, 50);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearInterval(sampler);
    expect(peak, `peak RSS ${Math.round(peak / 1024)} MB`).toBeLessThan(LIMIT_KB);
    expect(peak).toBeGreaterThan(0);
    expect(code, stderr).toBe(1);
    expect(stderr).not.toMatch(/\n\s+at /);
    expect(stdout).toMatch(/FAILED: \d+ violation\(s\)/);
    expect(server.requests()).toBeGreaterThan(20);
  }, 180_000);
});

describe('the runner against a server of deeply nested answers', () => {
  it('parses none of them, reports why, and neither overflows the stack nor hangs', async () => {
    const nested = `${'{"a":['.repeat(50_000)}${']}'.repeat(50_000)}`;
    const deep = await hostileServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(nested);
    });
    try {
      const { code, stdout, stderr } = await check({ baseUrl: deep.url, reporter: 'json' });
      expect(code, stderr).toBe(1);
      const report = JSON.parse(stdout) as { violations: number; outcomes: { failures: { actual: { body?: string } ; message: string }[] }[] };
      expect(report.violations).toBeGreaterThan(0);
      expect(stdout).toMatch(/the body nests deeper than \d+ levels, beyond what the runner parses/);
      // The head of the body, not the body, is in the report.
      expect(stdout.length).toBeLessThan(2 * 1024 * 1024);
    } finally {
      await deep.close();
    }
  }, 120_000);
});
