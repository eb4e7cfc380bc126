import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { freePort } from '../../src/shared/free-port.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';
import { controlApiPath, loadSpec, rateLimitPresets } from '../../src/spec/index.js';
import { cpuMs, residentBytes } from './machine.js';

export const root = fileURLToPath(new URL('../../', import.meta.url));
export const fakeBin = `${root}bin/monitoring-api-kit.js`;
export const prismBin = `${root}node_modules/@stoplight/prism-cli/dist/index.js`;
export const documentPath = `${root}openapi/monitoring-api.yaml`;

/** Credentials of the seeded admin (fixtures/users.json), the fake's development login. */
export const ADMIN = { id: '5867948233835d9661c56dc8', login: 'admin', password: 'admin-password' } as const;
export const adminBasic = `Basic ${Buffer.from(`${ADMIN.login}:${ADMIN.password}`).toString('base64')}`;

export interface ServerCommand {
  readonly name: string;
  /** Arguments to `node` (a script and its flags); `{port}` is replaced by the chosen port. */
  readonly args: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  /** Working folder (default: this checkout). */
  readonly cwd?: string;
}

export interface RunningServer {
  readonly name: string;
  readonly pid: number;
  readonly origin: string;
  /** From spawn() to the first 200 of GET /node/api/users/current, in ms. */
  readonly startupMs: number;
  /** CPU time the process had used by then (10 ms resolution): less at the mercy of other load than wall time. */
  readonly startupCpuMs: number;
  /** performance.now() when the process was spawned. */
  readonly spawnedAt: number;
  readonly child: ChildProcess;
  rss(): Promise<number | undefined>;
  /** The last lines the process wrote, for error messages. */
  output(): string;
  /** The first lines it wrote on stdout. */
  firstOutput(): string;
  stop(): Promise<void>;
}


const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One probe: true on a 200 from GET /node/api/users/current with the admin's Basic credentials. */
async function answers200(origin: string): Promise<boolean> {
  try {
    const response = await request(`${origin}/node/api/users/current`, {
      headers: { authorization: adminBasic },
      headersTimeout: 2000,
      bodyTimeout: 2000,
    });
    await response.body.dump();
    return response.statusCode === 200;
  } catch {
    return false;
  }
}

/** Milliseconds from the server's spawn to the 200 of GET `path` (admin Basic credentials), asked now. */
export async function msFromSpawnTo200(server: RunningServer, path: string): Promise<number> {
  const response = await request(`${server.origin}${path}`, { headers: { authorization: adminBasic }, headersTimeout: 120_000, bodyTimeout: 120_000 });
  await response.body.dump();
  if (response.statusCode !== 200) throw new Error(`${server.name}: GET ${path} answered ${response.statusCode}`);
  return performance.now() - server.spawnedAt;
}

/**
 * Starts a server as a child `node` process on a free port and waits for its first 200,
 * probing every `probeMs`. The start-up time is measured the same way for every server.
 */
export async function startServer(
  command: ServerCommand,
  options: { timeoutMs?: number; probeMs?: number } = {},
): Promise<RunningServer> {
  const { timeoutMs = 120_000, probeMs = 5 } = options;
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const args = command.args.map((a) => a.replaceAll('{port}', String(port)));
  let tail = '';
  let head = '';
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: command.cwd ?? root,
    env: { ...process.env, ...command.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-4000);
  };
  child.stdout?.on('data', (chunk: Buffer) => {
    if (head.length < 4000) head += chunk.toString();
    keep(chunk);
  });
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  let startupMs = -1;
  let startupCpuMs = -1;
  while (performance.now() - started < timeoutMs) {
    if (child.exitCode !== null) throw new Error(`${command.name} exited with ${child.exitCode}:\n${tail}`);
    if (await answers200(origin)) {
      startupMs = performance.now() - started;
      startupCpuMs = (await cpuMs(child.pid as number)) ?? -1;
      break;
    }
    await sleep(probeMs);
  }
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    }
  };
  if (startupMs < 0) {
    await stop();
    throw new Error(`${command.name} gave no 200 within ${timeoutMs} ms:\n${tail}`);
  }
  return {
    name: command.name,
    pid: child.pid as number,
    origin,
    startupMs,
    startupCpuMs,
    spawnedAt: started,
    child,
    rss: () => residentBytes(child.pid as number),
    output: () => tail,
    firstOutput: () => head,
    stop,
  };
}

/**
 * Builds dist/ (`npm run build`), so that the bin runs the code of this checkout from its
 * build, as after `npm ci`: every figure is of the build, never of stale output.
 */
export function buildDist(): void {
  const result = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`npm run build failed:\n${result.stdout}${result.stderr}`);
}

/** Node's arguments that run the CLI from the TypeScript sources through tsx, as the bin does when dist/ is older than src/. */
export const sourcesEntry: readonly string[] = ['--import', 'tsx', `${root}src/cli/main.ts`];

/** A CLI command (first argument: the bin) run from the sources instead. */
export function fromSources(command: ServerCommand, name = `${command.name} (sources, tsx)`): ServerCommand {
  return { ...command, name, args: [...sourcesEntry, ...command.args.slice(1)] };
}

/** The fake through its CLI (the `monitoring-api-kit` bin) with `records` records, request logging off. */
export function fakeCliCommand(records: number, extra: readonly string[] = [], name = 'fake', bin = fakeBin): ServerCommand {
  return {
    name,
    args: [bin, 'serve', '--host', '127.0.0.1', '--port', '{port}', '--records', String(records), '--log-level', 'silent', ...extra],
  };
}

/** The same fake command at another log level (the last --log-level given counts). */
export function withLogLevel(command: ServerCommand, level: string): ServerCommand {
  return { ...command, args: [...command.args, '--log-level', level] };
}

/**
 * A `--rate-limit` rules file with the default preset's keys at the highest limit the rules
 * allow (a million a second): every request is counted, none is blocked, so a load test
 * measures serving, not blocking.
 */
export const countedLimitsFile: string = await (async () => {
  const rules = rateLimitPresets(await loadSpec(controlApiPath)).lenient.map((rule) => ({ ...rule, limit: 1_000_000, windowSeconds: 1 }));
  const file = join(mkdtempSync(join(tmpdir(), 'bench-limits-')), 'rate-limit.json');
  writeFileSync(file, JSON.stringify({ rules }));
  return file;
})();

/** The fake as the throughput, soak and contract runs use it: the CLI, limits counted but never reached. */
export function fakeCommand(records: number, name = 'fake', bin = fakeBin): ServerCommand {
  return fakeCliCommand(records, ['--rate-limit', countedLimitsFile], name, bin);
}

/** bench/fake-server.mjs: the same fake (from dist/), which also prints how long building it took (for seed times). */
export function timedFakeCommand(records: number): ServerCommand {
  return { name: 'fake', args: [`${root}bench/fake-server.mjs`, '--port', '{port}', '--records', String(records)] };
}

/** What bench/fake-server.mjs printed when it was listening (the line may trail its first answer a little). */
export async function fakeReport(server: RunningServer): Promise<{ port: number; buildMs: number; records: number }> {
  for (let waited = 0; waited < 10_000; waited += 10) {
    const line = server.firstOutput().split('\n').find((l) => l.startsWith('{') && l.endsWith('}'));
    if (line) return JSON.parse(line) as { port: number; buildMs: number; records: number };
    await sleep(10);
  }
  throw new Error(`${server.name} printed no report:\n${server.output()}`);
}

/** `prism mock openapi/monitoring-api.yaml` from node_modules, logging off. */
export function prismCommand(): ServerCommand {
  return { name: 'prism', args: [prismBin, 'mock', '-h', '127.0.0.1', '-p', '{port}', '-v', 'silent', documentPath] };
}

/** The bare Fastify server of bench/bare-fastify.ts, answering with the bytes in `bodiesFile`. */
export function bareCommand(bodiesFile: string, logLevel?: string): ServerCommand {
  return { name: 'bare-fastify', args: ['--import', 'tsx', `${root}bench/bare-fastify.ts`, '{port}', bodiesFile, ...(logLevel === undefined ? [] : [logLevel])] };
}
