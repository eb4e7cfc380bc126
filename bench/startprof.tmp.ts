import { spawn } from 'node:child_process';
const t0 = performance.now();
const child = spawn(process.execPath, ['--cpu-prof', '--cpu-prof-dir', '/tmp/prof/out', '--import', 'tsx', 'bench/fake-server.ts', '--port', '4778', '--records', '10000'], { stdio: ['ignore', 'pipe', 'inherit'] });
child.stdout!.on('data', (d) => console.log(String(d).trim(), Math.round(performance.now() - t0), 'ms since spawn'));
await new Promise((r) => child.stdout!.once('data', r));
child.kill('SIGTERM');
await new Promise((r) => child.once('exit', r));
