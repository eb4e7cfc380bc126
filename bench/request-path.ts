// `node --import tsx bench/request-path.ts [path]`: the src files whose code runs for one request
// (default `GET /node/api/event-log?limit=10` with Basic credentials), by V8's precise coverage
// of a second request over HTTP: files with a function called beyond their module's own load.
import { Session } from 'node:inspector/promises';
import { fileURLToPath } from 'node:url';
import { relative, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const path = process.argv[2] ?? '/node/api/event-log?limit=10';
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: true });

const { buildFake } = await import('../src/server/build.js');
const app = await buildFake({ logger: false });
const origin = await app.listen({ port: 0, host: '127.0.0.1' });
const headers = { authorization: `Basic ${Buffer.from('admin:admin-password').toString('base64')}` };
const call = async () => {
  const response = await fetch(`${origin}${path}`, { headers });
  await response.arrayBuffer();
  return response.status;
};
await call();
await session.post('Profiler.takePreciseCoverage'); // counts start again from here
const status = await call();
const { result } = await session.post('Profiler.takePreciseCoverage');
await app.close();

const files = result
  .filter((script) => script.url.startsWith('file://') && script.url.includes('/src/'))
  .filter((script) => script.functions.some((fn) => fn.ranges[0]!.startOffset > 0 && fn.ranges[0]!.count > 0))
  .map((script) => relative(root, fileURLToPath(script.url)))
  .sort();
console.log(`${path}: ${status}, ${files.length} files`);
for (const file of files) console.log(`  ${file}`);
