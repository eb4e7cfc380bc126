// A server that puts terminal control sequences and characters XML cannot hold into its answers
// (bodies, JSON keys, headers a finding quotes): no report carries them raw, so a terminal
// cannot be made to clear the findings or print a forged verdict, and the JUnit file stays XML.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { check, hostileServer, type HostileServer } from './hostile-server.js';

const FORGED = '\r\u001b[2J\u001b[H\u001b]0;title\u0007PASSED: 0 violation(s)\ud800\u0000\u0008\u009b31m\u000b';
// C0 controls but tab and line feed (a carriage return would go back over a line); DEL; C1 controls.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;
// A half of a surrogate pair alone (from a JSON escape), which no XML file may hold.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

let server: HostileServer;
beforeAll(async () => {
  let n = 0;
  server = await hostileServer((_req, res) => {
    n += 1;
    if (n % 2 === 0) {
      // Text, not JSON: shown as it came.
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`error ${FORGED}`);
      return;
    }
    // JSON whose key and value hold the sequences (a schema finding names the key).
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id: '5867948233835d9661c56dc8', login: 'admin', [`key${FORGED}`]: `value${FORGED}` }));
  });
});
afterAll(() => server.close());

describe('the runner against a server that answers with control characters', () => {
  it.each(['console', 'json'] as const)('the %s report and stderr hold none raw', async (reporter) => {
    const { code, stdout, stderr } = await check({ baseUrl: server.url, reporter, quiet: false, seed: 7 });
    expect(code).toBe(1);
    expect(stdout).toContain('PASSED: 0 violation(s)');
    expect(stdout).not.toMatch(CONTROL);
    expect(stderr).not.toMatch(CONTROL);
  }, 60_000);

  it.each(['junit', 'html', 'markdown'] as const)('the %s file holds none raw', async (reporter) => {
    const output = join(mkdtempSync(join(tmpdir(), 'report-')), 'report');
    const { code, stdout } = await check({ baseUrl: server.url, reporter, output, seed: 7 });
    expect(code).toBe(1);
    const file = readFileSync(output, 'utf8');
    expect(file).toContain('PASSED: 0 violation(s)');
    expect(file).not.toMatch(CONTROL);
    expect(file).not.toMatch(LONE_SURROGATE);
    expect(stdout).not.toMatch(CONTROL);
  }, 60_000);
});
