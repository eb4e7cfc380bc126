import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSpecValidator, loadSpec } from '../../src/spec/index.js';

const bin = fileURLToPath(new URL('../../bin/monitoring-api-kit.js', import.meta.url));
const spec = await loadSpec();
const validator = createSpecValidator(spec);

let child: ChildProcess;
let output = '';
let baseUrl = '';

/** Starts `monitoring-api-kit serve --port 0` and waits for the whole banner (its last line starts with "Try:"). */
function start(): Promise<string> {
  child = spawn(process.execPath, [bin, 'serve', '--port', '0', '--log-level', 'silent'], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /API base URL: (http:\/\/127\.0\.0\.1:\d+\/node\/api)\n[^]*\nTry: .*\n/.exec(output);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${output}`)));
  });
}

async function call(operationId: string, url: string, init: RequestInit = {}) {
  const response = await fetch(url, init);
  const body = await response.text();
  const problems = validator.checkResponse(operationId, {
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body,
  });
  expect(problems).toEqual([]);
  return { response, body };
}

beforeAll(async () => {
  baseUrl = await start();
}, 30_000);
afterAll(() => {
  if (child.exitCode === null) child.kill('SIGKILL');
});

describe('monitoring-api-kit serve', () => {
  it('prints the seeded logins with their passwords', () => {
    expect(output).toMatch(/admin +admin-password +manage-users, manage-event-log, manage-configuration/);
    expect(output).toMatch(/operator +operator-password +manage-event-log/);
    expect(output).toMatch(/viewer +viewer-password +\(no permissions\)/);
  });

  it('prints both loopback names of the server, since a browser keeps cookies per name', () => {
    const port = new URL(baseUrl).port;
    expect(output).toContain(`Monitoring API fake listening on http://127.0.0.1:${port}\n`);
    expect(output).toMatch(new RegExp(`\\nAlso as: +http://localhost:${port} \\(the same server; a browser keeps cookies per host name`));
  });

  it('answers the current user over HTTP with each auth method', async () => {
    const basic = `Basic ${Buffer.from('admin:admin-password').toString('base64')}`;
    const byBasic = await call('getCurrentUser', `${baseUrl}/users/current`, { headers: { authorization: basic } });
    expect(JSON.parse(byBasic.body).login).toBe('admin');

    const login = await call('createSession', `${baseUrl}/users/session`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: 'operator', password: 'operator-password' }),
    });
    const cookies = login.response.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
    expect(cookies).toMatch(/^sid=[0-9a-f-]{36}; csrf=[0-9a-f-]{36}$/);
    const byCookie = await call('getCurrentUser', `${baseUrl}/users/current`, { headers: { cookie: cookies } });
    expect(JSON.parse(byCookie.body).login).toBe('operator');

    const created = await call('createAuthToken', `${baseUrl}/users/5867948233835d9661c56dc9/auth-token`, {
      method: 'POST',
      headers: { authorization: basic },
    });
    const token = JSON.parse(created.body) as string;
    for (const name of ['api-token', 'auth-token']) {
      const byToken = await call('getCurrentUser', `${baseUrl}/users/current?${name}=${token}`);
      expect(JSON.parse(byToken.body)).toMatchObject({ login: 'viewer', authenticationToken: token });
    }
    const anonymous = await call('getCurrentUser', `${baseUrl}/users/current`);
    expect(anonymous.response.status).toBe(401);
  });

  it('shuts down cleanly on SIGTERM', async () => {
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output).toContain('SIGTERM: shutting down');
  });
});
