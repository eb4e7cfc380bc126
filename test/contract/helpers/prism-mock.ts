// `prism mock` (a dev dependency) on a free loopback port, answering from the document's examples.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { freePort } from '../../../src/shared/free-port.js';
import { monitoringApiPath, packageRoot } from '../../../src/spec/index.js';

export interface RunningPrism {
  readonly url: string;
  stop(): Promise<void>;
}

export async function startPrismMock(): Promise<RunningPrism> {
  const port = await freePort();
  const child = spawn(join(packageRoot, 'node_modules', '.bin', 'prism'), ['mock', monitoringApiPath, '-h', '127.0.0.1', '-p', String(port)], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1' } });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const listen = (chunk: Buffer): void => {
      output += chunk.toString();
      if (output.includes('Prism is listening on')) resolve();
    };
    child.stdout.on('data', listen);
    child.stderr.on('data', listen);
    child.once('exit', (code) => reject(new Error(`Prism stopped (exit ${String(code)}): ${output.slice(-300)}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
