// One test's own cost with the MSW handlers: `fake.reset()` and then one request, through MSW
// (fetch intercepted, answered in-process) and, side by side, through `fake.inject`. Run by
// `npm run bench` (section msw) in a process of its own, as MSW replaces the global fetch; it
// loads the sources through tsx (only loading is slower than from the build). Prints JSON on stdout.
//   node --import tsx bench/msw-per-test.ts --runs 300 --records 1000
import { parseArgs } from 'node:util';
import { setupServer } from 'msw/node';
import { createFake } from '../src/index.js';
import { handlersFor } from '../src/msw/index.js';
import { adminBasic } from './lib/servers.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '300' }, records: { type: 'string', default: '1000' } } });
const runs = Number(values.runs);
const records = Number(values.records);

const baseUrl = 'http://app.test';
const path = '/node/api/event-log?sortDirection=desc&limit=10';
const headers = { authorization: adminBasic };
const fake = await createFake({ records, seed: 1, docs: false });
const handlers = handlersFor(fake, { baseUrl });
const server = setupServer(...handlers);
server.listen({ onUnhandledRequest: 'error' });

/** Each way one test begins: the reset alone, and the reset plus the request. */
const ways = {
  reset: async () => {
    await fake.reset();
  },
  'reset + inject': async () => {
    await fake.reset();
    const answer = await fake.inject({ url: path, headers });
    if (answer.statusCode !== 200) throw new Error(`inject answered ${answer.statusCode}`);
  },
  'reset + MSW fetch': async () => {
    await fake.reset();
    handlers.clearCookies();
    const response = await fetch(`${baseUrl}${path}`, { headers });
    await response.text();
    if (response.status !== 200) throw new Error(`MSW answered ${response.status}`);
  },
  'MSW fetch alone': async () => {
    const response = await fetch(`${baseUrl}${path}`, { headers });
    await response.text();
  },
} satisfies Record<string, () => Promise<void>>;
type Way = keyof typeof ways;

/** Wall time, and the CPU time of this process meanwhile (less at the mercy of other processes on a busy machine). */
const timed = async (way: Way) => {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await ways[way]();
  const wallMs = performance.now() - started;
  const { user, system } = process.cpuUsage(cpu);
  return { wallMs, cpuMs: (user + system) / 1000 };
};

// The first of each (MSW's interceptor, the routes' first compilation) is reported apart.
const first = {} as Record<Way, number>;
for (const way of Object.keys(ways) as Way[]) first[way] = (await timed(way)).wallMs;
const samples = Object.fromEntries(Object.keys(ways).map((way) => [way, [] as number[]])) as Record<Way, number[]>;
const cpu = Object.fromEntries(Object.keys(ways).map((way) => [way, [] as number[]])) as Record<Way, number[]>;
// Interleaved, the order turned each round, so load from elsewhere falls on every way alike.
const order = Object.keys(ways) as Way[];
for (let round = 0; round < runs; round++) {
  for (const way of round % 2 === 0 ? order : [...order].reverse()) {
    const { wallMs, cpuMs } = await timed(way);
    samples[way].push(wallMs);
    cpu[way].push(cpuMs);
  }
}
server.close();
await fake.close();
console.log(JSON.stringify({ runs, records, request: `GET ${path}`, first, samples, cpu }));
