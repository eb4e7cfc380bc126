// A server that goes away in the middle of a run: the run stops with exit 2 and one line on
// stderr, and no report says PASSED for what it never checked.
import { describe, expect, it } from 'vitest';
import { check, hostileServer, json } from './hostile-server.js';

describe('a server that stops listening mid-run', () => {
  it.each(['console', 'junit'] as const)('--reporter %s: exit 2, one line, no verdict', async (reporter) => {
    let served = 0;
    const server = await hostileServer((req, res) => {
      served += 1;
      json(res, req.headers.authorization || req.headers.cookie ? 200 : 401, { id: '5867948233835d9661c56dc8', login: 'admin', status: 401, code: 'UNAUTHORIZED', message: 'no' });
      // After a dozen answers the server is gone: no more connections, the open ones closed.
      if (served === 12) void server.close();
    });
    const { code, stdout, stderr } = await check({ baseUrl: server.url, reporter, seed: 1, timeout: 2000 });
    expect(code).toBe(2);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/^monitoring-api-kit check: (cannot reach http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED|stopped: 5 requests in a row got no answer)/);
    expect(stdout).not.toMatch(/PASSED/);
  }, 60_000);
});
