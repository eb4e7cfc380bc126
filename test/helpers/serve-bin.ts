// `monitoring-api-kit serve` as a user starts it: a child process on a free port, ready once its
// banner is printed whole (the last line starts with "Try:").
import { spawn, type ChildProcess } from 'node:child_process';
import { bin } from './run-bin.js';

export interface ServedBin {
  readonly baseUrl: string;
  /** Everything printed so far. */
  output(): string;
  stop(): Promise<void>;
}

export function serveBin(args: readonly string[], env: Readonly<Record<string, string>> = {}): Promise<ServedBin> {
  const child: ChildProcess = spawn(process.execPath, [bin, 'serve', '--port', '0', '--log-level', 'silent', ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } });
  let output = '';
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
  };
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /API base URL: (http:\/\/127\.0\.0\.1:\d+\/node\/api)\n[^]*\nTry: .*\n/.exec(output);
      if (match?.[1]) resolve({ baseUrl: match[1], output: () => output, stop });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${output}`)));
  });
}
