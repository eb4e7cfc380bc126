import { spawn } from 'node:child_process';
import { readFile, writeFile, mkdtemp } from 'node:fs/promises';
import { connect, createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import snmp from 'net-snmp';
import { describe, expect, it } from 'vitest';
import { serveFlags } from '../../src/cli/serve-flags.js';
import { createProgram } from '../../src/cli/program.js';
import { rawRequest } from '../helpers/raw-http.js';
import { expectConforms, validator } from '../server/helpers.js';

const bin = fileURLToPath(new URL('../../bin/monitoring-api-kit.js', import.meta.url));

/** Runs `serve` with these arguments and environment until it exits or prints the whole banner. */
function serve(args: string[], env: Record<string, string> = {}) {
  const child = spawn(process.execPath, [bin, 'serve', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const started = new Promise<string>((resolve, reject) => {
    child.stdout.on('data', () => {
      const origin = /listening on (http:\/\/\S+)\n[^]*\nTry: .*\n/.exec(stdout)?.[1];
      if (origin) resolve(origin);
    });
    void exited.then((code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
  started.catch(() => undefined);
  return { child, exited, started, out: () => stdout, err: () => stderr };
}

describe('serve flags', () => {
  it('--help lists every flag with its environment variable', () => {
    const command = createProgram().commands.find((c) => c.name() === 'serve')!;
    const help = command.helpInformation().replace(/\s+/g, ' ');
    for (const flag of serveFlags) {
      expect(help, flag.flags).toContain(flag.flags);
      if (flag.env) expect(help, flag.flags).toContain(`env: ${flag.env}`);
    }
    expect(serveFlags.filter((f) => !f.env).map((f) => f.flags)).toEqual(['--no-token-auth', '--no-prefer']);
    expect(help).toContain('(default: 4010, env: MONITORING_FAKE_PORT)');
  });

  it('reads every setting from MONITORING_FAKE_* variables, and receives SNMP traps on the port given', async () => {
    const run = serve([], {
      MONITORING_FAKE_PORT: '0',
      MONITORING_FAKE_LOG_LEVEL: 'silent',
      MONITORING_FAKE_RECORDS: '25',
      MONITORING_FAKE_SEED: '7',
      MONITORING_FAKE_LATENCY: '3',
      MONITORING_FAKE_REQUIRE_CSRF: 'yes',
      MONITORING_FAKE_TOKEN_AUTH: 'no',
      MONITORING_FAKE_RATE_LIMIT: 'strict',
      MONITORING_FAKE_SNMP_PORT: '0',
      MONITORING_FAKE_CORS_ORIGINS: 'http://ui.test:8080',
      MONITORING_FAKE_CONTROL_HOSTS: 'fake.test,other.test',
      MONITORING_FAKE_ALLOWED_HOSTS: '*',
      MONITORING_FAKE_PREFER: 'no',
    });
    try {
      const origin = await run.started;
      expect(run.out()).toMatch(/Docs: +http:\/\/127\.0\.0\.1:\d+\/docs/);
      expect(run.out()).toMatch(/Control API: +http:\/\/127\.0\.0\.1:\d+\/__control/);
      const snmpPort = Number(/SNMP traps: +udp 127\.0\.0\.1:(\d+)/.exec(run.out())?.[1]);
      expect(snmpPort).toBeGreaterThan(0);
      expect(run.out()).not.toMatch(/MQTT/);

      // The Prefer header is ignored: the answer is the real one (401, no credentials).
      expect((await fetch(`${origin}/node/api/users/current`, { headers: { prefer: 'code=503' } })).status).toBe(401);
      const config = await (await fetch(`${origin}/__control/config`)).json();
      expect(config).toMatchObject({ authTokenEnabled: false, requireCsrf: true, latencyMs: 3, rateLimit: { preset: 'strict' } });
      const preflight = await fetch(`${origin}/node/api/users/current`, { method: 'OPTIONS', headers: { origin: 'http://ui.test:8080', 'access-control-request-method': 'GET' } });
      expect(preflight.headers.get('access-control-allow-origin')).toBe('http://ui.test:8080');
      for (const host of ['fake.test:4010', 'other.test']) {
        expect((await rawRequest(origin, { path: '/__control/config', headers: { host } })).statusCode, host).toBe(200);
      }
      const rebound = await rawRequest(origin, { path: '/__control/config', headers: { host: 'evil.example:4010' } });
      expect(rebound.statusCode).toBe(403);
      expect(validator.validateNamed('Error', JSON.parse(rebound.body))).toEqual([]);
      // --allowed-host *: the monitoring API answers any Host (the control API still does not).
      const anyHost = await rawRequest(origin, { path: '/node/api/users/current', headers: { host: 'evil.example:4010' } });
      expect(anyHost.statusCode).toBe(401);
      const summary = await (await fetch(`${origin}/__control/reset?keepConfig=true`, { method: 'POST' })).json();
      expect(summary.eventLogRecords).toBeGreaterThanOrEqual(25);

      const session = snmp.createSession('127.0.0.1', 'public', { version: snmp.Version2c, trapPort: snmpPort });
      await new Promise<void>((resolve, reject) => session.trap(snmp.TrapType.LinkDown, [], {}, (e) => (e ? reject(e) : resolve())));
      session.close();
      const admin = { authorization: `Basic ${Buffer.from('admin:admin-password').toString('base64')}` };
      // The trap travels over UDP: look until it is there (bounded; nothing asserts how long it took).
      let traps: { payload: { trapOid: string } }[] = [];
      for (let i = 0; i < 100 && traps.length === 0; i++) {
        if (i > 0) await new Promise((resolve) => setTimeout(resolve, 20));
        traps = await (await fetch(`${origin}/node/api/event-log?type=1&filter=${encodeURIComponent('{"payload.senderAddress":"127.0.0.1"}')}`, { headers: admin })).json();
      }
      expect(traps.map((t) => t.payload.trapOid)).toEqual(['1.3.6.1.6.3.1.1.5.3']);
    } finally {
      run.child.kill('SIGTERM');
      expect(await run.exited).toBe(0);
    }
  });

  it('--allowed-host (repeatable, comma-separated, .name for subdomains) and --control-host names reach the API, no other name does', async () => {
    const run = serve(['--port', '0', '--log-level', 'silent', '--records', '5', '--allowed-host', 'ui.lan', '--allowed-host', '.corp.test,192.0.2.9', '--control-host', 'fake.test']);
    try {
      const origin = await run.started;
      const currentUser = (host: string) => rawRequest(origin, { path: '/node/api/users/current', headers: { host } });
      for (const host of ['ui.lan:5173', 'corp.test', 'a.corp.test:4010', 'fake.test', 'localhost:4010', '127.0.0.1']) {
        const answer = await currentUser(host);
        expect(answer.statusCode, host).toBe(401);
        expectConforms('getCurrentUser', answer as never);
      }
      for (const host of ['evil.example:4010', 'ui.lan.evil.example', 'a.ui.lan']) {
        const answer = await currentUser(host);
        expect(answer.statusCode, host).toBe(403);
        expectConforms('getCurrentUser', answer as never);
        expect(JSON.parse(answer.body).message).toContain('--allowed-host');
      }
      // An allowed host of the API is not a host of the control API.
      expect((await rawRequest(origin, { path: '/__control/config', headers: { host: 'ui.lan' } })).statusCode).toBe(403);
    } finally {
      run.child.kill('SIGTERM');
      expect(await run.exited).toBe(0);
    }
  });

  it('--max-connections caps the connections open at once', async () => {
    const run = serve(['--port', '0', '--log-level', 'silent', '--records', '5', '--max-connections', '3']);
    const held: Socket[] = [];
    try {
      const origin = await run.started;
      const { hostname, port } = new URL(origin);
      for (let i = 0; i < 3; i++) {
        const socket = connect(Number(port), hostname);
        socket.on('error', () => undefined);
        await new Promise((resolve) => socket.once('connect', resolve));
        held.push(socket);
      }
      await expect(rawRequest(origin, { path: '/node/api/users/current' })).rejects.toThrow();
      for (const socket of held) socket.destroy();
      let answer: Awaited<ReturnType<typeof rawRequest>> | undefined;
      // The fake notices the closed connections a moment later: ask until it answers (bounded).
      for (let i = 0; i < 100 && answer === undefined; i++) answer = await rawRequest(origin, { path: '/node/api/users/current' }).catch(() => undefined);
      expect(answer?.statusCode).toBe(401);
      expectConforms('getCurrentUser', answer as never);
    } finally {
      for (const socket of held) socket.destroy();
      run.child.kill('SIGTERM');
      expect(await run.exited).toBe(0);
    }
  });


  it('refuses bad values, bad files and a port in use with one line on stderr and exit code 1', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'serve-flags-'));
    const badFixture = join(dir, 'events.json');
    const [shipped] = JSON.parse(await readFile(fileURLToPath(new URL('../../fixtures/events.json', import.meta.url)), 'utf8')) as object[];
    await writeFile(badFixture, JSON.stringify([{ ...shipped, _id: 'x' }]));
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const takenPort = String((taken.address() as { port: number }).port);
    const quiet = ['--log-level', 'silent'];
    const cases = [
      { args: ['--port', 'eighty'], line: /^error: option '--port <port>' argument 'eighty' is invalid\. expected an integer from 0 to 65535$/ },
      { args: ['--port', '0', '--fixture', badFixture], line: /^monitoring-api-kit: Fixture file .*events\.json, record 0 \(_id "x"\): field .+$/ },
      { args: ['--allowed-host', 'ui.lan,fake.test:4010'], line: /^error: option '--allowed-host <name>' argument 'ui\.lan,fake\.test:4010' is invalid\. "fake\.test:4010" is not a host name or address \(no port\), \.name \(the name and its subdomains\) or \*$/ },
      { args: ['--port', takenPort], line: new RegExp(`^monitoring-api-kit: port ${takenPort} on 127\\.0\\.0\\.1 is in use; choose another with --port \\(or MONITORING_FAKE_PORT\\)$`) },
    ];
    try {
      const runs = cases.map((c) => ({ ...c, run: serve([...c.args, ...quiet]) }));
      for (const { run, line, args } of runs) {
        expect(await run.exited, args.join(' ')).toBe(1);
        const lines = run.err().trimEnd().split('\n');
        expect(lines, args.join(' ')).toHaveLength(1);
        expect(lines[0]).toMatch(line);
        expect(run.out()).not.toContain('listening');
      }
    } finally {
      taken.close();
    }
  });
});
