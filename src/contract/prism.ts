// Prism (a dev dependency) as a second opinion: `prism proxy` in front of a target validates
// every response against the document and says so in `sl-violations`; `prism mock` answers
// from the document's examples. Started on a free loopback port, stopped when done.
import { spawn } from 'node:child_process';
import { freePort } from '../shared/free-port.js';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { monitoringApiPath, packageRoot } from '../spec/index.js';
import { UsageError } from './errors.js';

export interface PrismOptions {
  readonly mode: 'mock' | 'proxy';
  /** The server Prism forwards to (proxy mode). */
  readonly target?: string;
  readonly document?: string;
  readonly port?: number;
  /** How long Prism may take to start. */
  readonly startTimeoutMs?: number;
}


export interface RunningPrism {
  readonly url: string;
  stop(): Promise<void>;
}


export async function startPrism(options: PrismOptions): Promise<RunningPrism> {
  const bin = join(packageRoot, 'node_modules', '.bin', 'prism');
  if (!existsSync(bin)) throw new UsageError('Prism is not installed (@stoplight/prism-cli is a dev dependency: run npm ci in the kit)');
  const port = options.port ?? (await freePort());
  const document = options.document ?? monitoringApiPath;
  const args =
    options.mode === 'mock'
      ? ['mock', document, '-h', '127.0.0.1', '-p', String(port)]
      : ['proxy', document, options.target ?? '', '--errors=false', '-h', '127.0.0.1', '-p', String(port)];
  const child = spawn(bin, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } });
  let output = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async (): Promise<void> => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
  };
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new UsageError(`Prism did not start within ${options.startTimeoutMs ?? 60_000} ms: ${output.slice(-300)}`));
    }, options.startTimeoutMs ?? 60_000);
    const listen = (chunk: Buffer): void => {
      output += chunk.toString();
      if (/Prism is listening on/.test(output)) {
        clearTimeout(timer);
        child.stdout.off('data', listen);
        child.stderr.off('data', listen);
        resolve();
      }
    };
    child.stdout.on('data', listen);
    child.stderr.on('data', listen);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new UsageError(`Prism stopped (exit ${String(code)}): ${output.slice(-300)}`));
    });
  });
  // Keep draining its log so a full pipe never stalls it.
  child.stdout.resume();
  child.stderr.resume();
  return { url: `http://127.0.0.1:${port}`, stop };
}
