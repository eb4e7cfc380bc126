import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { createFake, type CreateFakeOptions, type Fake, type FakeUrls } from '../fake/create-fake.js';
import { defaultEventFixtures, type RateLimitChoice } from '../server/options.js';
import { terminalText } from '../shared/escape.js';
import { controlApiPath, createSpecValidator, loadSpec } from '../spec/index.js';
import type { RateLimitRule } from '../spec/control-types.js';
import { addFlags } from './flag.js';
import { serveFlags, type ServeFlags } from './serve-flags.js';

/** `--rate-limit`: a preset name, or a JSON file of rules (`[...]`, `{"rules": [...]}` or `{"preset": "strict"}`) checked against the control API document. */
export async function readRateLimit(value: string): Promise<RateLimitChoice> {
  if (['lenient', 'strict', 'off'].includes(value)) return value as RateLimitChoice;
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(value, 'utf8'));
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new Error(`--rate-limit ${value}: not lenient, strict or off, and not a readable JSON file of rules (${reason})`);
  }
  const update = Array.isArray(parsed) ? { rules: parsed } : parsed;
  const validator = createSpecValidator(await loadSpec(controlApiPath));
  const problems = validator.validateNamed('RateLimitUpdate', update);
  if (problems.length > 0) {
    const first = validator.validateNamed('RateLimitRules', (update as { rules?: unknown }).rules)[0] ?? problems[0];
    throw new Error(`--rate-limit ${value}: expected rules {key, limit, windowSeconds, blockSeconds} or {"preset": ...}: ${first?.message ?? 'invalid'}`);
  }
  const checked = update as { rules: RateLimitRule[] } | { preset: 'lenient' | 'strict' };
  return 'preset' in checked ? checked.preset : checked.rules;
}

/** The options of the fake that the flags set. */
export async function fakeOptionsFromFlags(flags: ServeFlags): Promise<CreateFakeOptions> {
  return {
    seed: flags.seed,
    ...(flags.records === undefined ? {} : { records: flags.records }),
    ...(flags.recording === undefined ? {} : { recording: flags.recording }),
    // The dev server's data ends when it starts; a recording keeps its own times unless asked.
    ...(flags.anchor === undefined && flags.recording !== undefined ? {} : { anchor: flags.anchor ?? 'now' }),
    eventFixtures: [...defaultEventFixtures(flags.recording), ...flags.fixture],
    ...(flags.users !== undefined ? { users: flags.users } : {}),
    tokenAuthEnabled: flags.tokenAuth,
    requireCsrf: flags.requireCsrf,
    latencyMs: flags.latency,
    honourPrefer: flags.prefer,
    watch: flags.watch,
    rateLimit: await readRateLimit(flags.rateLimit),
    ...(flags.corsOrigin ? { corsOrigins: flags.corsOrigin } : {}),
    controlFromAnyAddress: flags.controlAnyAddress,
    // --host is answered as the fake's listen answers the host it listens on (unless 0.0.0.0 or ::).
    controlHosts: flags.controlHost ?? [],
    allowedHosts: flags.allowedHost ?? [],
    connections: { maxConnections: flags.maxConnections },
    journalSize: flags.journalSize,
    // auto: pretty for a person at a terminal, JSON for a pipe or a file (the cheap path).
    logger: { level: flags.logLevel, format: flags.logFormat === 'auto' ? (process.stdout.isTTY ? 'pretty' : 'json') : flags.logFormat },
    liveRate: flags.liveRate,
    ...(flags.snmpPort !== undefined ? { snmpPort: flags.snmpPort, snmpCommunity: flags.snmpCommunity } : {}),
    ...(flags.mqttPort !== undefined ? { mqttPort: flags.mqttPort } : {}),
    ingestHost: flags.host,
  };
}

/** The loopback names of one server: a browser sees two sites, whose cookies it keeps apart. */
const OTHER_NAME: Readonly<Record<string, string>> = { '127.0.0.1': 'localhost', localhost: '127.0.0.1', '[::1]': 'localhost' };

/** What a developer needs to start: the URLs, the ingesters, and the seeded logins with their passwords (development credentials, shown on purpose). */
function banner(fake: Fake, urls: FakeUrls, options: CreateFakeOptions): string[] {
  // Logins, passwords and permissions come from a file or a recording: no control character of theirs reaches the terminal.
  const users = Object.values(fake.users).map((u) => ({ login: terminalText(u.login), password: terminalText(u.password), permissions: u.permissions.map(terminalText) }));
  const width = Math.max(0, ...users.map((u) => u.login.length));
  const passWidth = Math.max(0, ...users.map((u) => u.password.length));
  const first = users[0];
  const host = options.ingestHost ?? '127.0.0.1';
  // The other name of a loopback origin, and why it matters: a page must use the name the API has.
  const origin = new URL(urls.origin);
  const other = OTHER_NAME[origin.hostname];
  const recording = options.recording ? fake.app.fake.recording : undefined;
  return [
    `Monitoring API fake listening on ${urls.origin}`,
    ...(other === undefined
      ? []
      : [`Also as:      ${origin.protocol}//${other}${origin.port ? `:${origin.port}` : ''} (the same server; a browser keeps cookies per host name, so call the API under the host name of your page: a session made on one name is not sent to the other)`]),
    `API base URL: ${urls.baseUrl}`,
    `Docs:         ${urls.docsUrl} (control API: ${urls.docsUrl}/control)`,
    `Control API:  ${urls.controlUrl} (loopback only${options.controlFromAnyAddress ? ', opened to any address' : ''})`,
    ...(options.journalSize === 0 ? [] : [`Requests:     ${urls.inspectorUrl} (every request, live; same guard as the control API)`]),
    ...(fake.snmpPort !== undefined ? [`SNMP traps:   udp ${host}:${fake.snmpPort} (v1/v2c, community ${[options.snmpCommunity ?? 'public'].flat().join(', ')})`] : []),
    ...(fake.mqttPort !== undefined ? [`MQTT broker:  mqtt://${host.includes(':') ? `[${host}]` : host}:${fake.mqttPort}`] : []),
    ...(options.liveRate ? [`Live events:  ${options.liveRate} new record(s) per second`] : []),
    // The recording served: where it is, where it came from, what it holds.
    ...(recording
      ? [`Recording:    ${options.recording} (${recording.source}, recorded ${recording.recordedAt}: ${recording.counts.events + recording.counts.invalidKept} event log records, ${recording.blockLog === 'recorded' ? `${recording.counts.blocks} blocked requests` : 'no block log'})`]
      : []),
    ...(options.watch ? ['Watching:     the users file and the fixture files (edits are reloaded)'] : []),
    'Seeded logins (development credentials of this fake):',
    ...users.map((u) => `  ${u.login.padEnd(width)}  ${u.password.padEnd(passWidth)}  ${u.permissions.join(', ') || '(no permissions)'}`),
    ...(first ? [`Try: curl -u ${first.login}:${first.password} ${urls.baseUrl}/users/current`] : []),
  ];
}

/** Why listening failed, in one line a person can act on. */
function listenFailure(error: unknown, host: string, port: number): Error {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'EADDRINUSE') return new Error(`port ${port} on ${host} is in use; choose another with --port (or MONITORING_FAKE_PORT)`);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') return new Error(`cannot listen on ${host}: no such local address (--host)`);
  if (code === 'EACCES') return new Error(`not allowed to listen on port ${port} of ${host}; use a port above 1023`);
  return error as Error;
}

/** Generated records from which the start-up says that it is making them. */
const LARGE_SEED = 100_000;

/** Starts the fake and prints its banner; a start or listen that fails says why in one line. */
async function startServer(port: number, host: string, fakeOptions: CreateFakeOptions): Promise<Fake> {
  // The records are made before the fake listens: a few seconds for a million.
  if ((fakeOptions.records ?? 0) >= LARGE_SEED) console.log(`Making ${fakeOptions.records?.toLocaleString('en-US')} event log records…`);
  const fake = await createFake(fakeOptions).catch((error: NodeJS.ErrnoException & { port?: number }) => {
    if (error.code !== 'EADDRINUSE') throw error;
    throw new Error(`the SNMP or MQTT port${error.port ? ` ${error.port}` : ''} is in use; choose another with --snmp-port / --mqtt-port`);
  });
  const urls = await fake.listen({ port, host }).catch(async (error: unknown) => {
    await fake.close();
    throw listenFailure(error, host, port);
  });
  for (const line of banner(fake, urls, fakeOptions)) console.log(line);
  return fake;
}

export function registerServeCommand(program: Command): Command {
  const command = program.command('serve').description('serve the in-memory fake of the API, its docs and its control API');
  addFlags(command, serveFlags).action(async (flags: ServeFlags) => {
    const fake = await startServer(flags.port, flags.host, await fakeOptionsFromFlags(flags));
    const stop = (signal: string) => {
      console.log(`${signal}: shutting down`);
      // A second signal while closing ends the process at once.
      process.once(signal, () => process.exit(130));
      fake.close().then(
        () => {
          process.exitCode = 0;
        },
        (error: unknown) => {
          console.error(`monitoring-api-kit: closing failed: ${(error as Error).message}`);
          process.exitCode = 1;
        },
      );
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  return command;
}
