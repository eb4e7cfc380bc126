// The fake as the scale benchmark runs it: the build in dist/ (what `monitoring-api-kit serve`
// runs), through createFake and listen, request logging off, limits counted but never reached, and
// one line on stdout once listening that says how long building it took, the event log's
// records made: {"port", "buildMs", "records"}.
// Plain JavaScript run by Node alone, so nothing but the build is measured.
// Usage: node bench/fake-server.mjs --port <n> [--records <n>] [--seed <n>]
import { parseArgs } from 'node:util';
import { createFake } from '../dist/index.js';
import { controlApiPath, loadSpec, rateLimitPresets } from '../dist/spec/index.js';

const { values } = parseArgs({
  options: { port: { type: 'string', default: '0' }, records: { type: 'string' }, seed: { type: 'string' } },
});

/** The default (lenient) preset's keys at the highest limit the rules allow, a million a second: counted on every request, never reached. */
const benchRateLimit = rateLimitPresets(await loadSpec(controlApiPath)).lenient.map((rule) => ({ ...rule, limit: 1_000_000, windowSeconds: 1 }));

const t0 = performance.now();
const fake = await createFake({
  logger: false,
  rateLimit: benchRateLimit,
  ...(values.records !== undefined ? { records: Number(values.records) } : {}),
  ...(values.seed !== undefined ? { seed: Number(values.seed) } : {}),
});
await fake.listen({ port: Number(values.port), host: '127.0.0.1' });
// The event log's records are made before listening: the seed time includes generating,
// freezing and indexing them.
const records = fake.app.fake.state.data.events.size;
const buildMs = Math.round(performance.now() - t0);
const address = fake.app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
console.log(JSON.stringify({ port, buildMs, records }));

const stop = () => void fake.close();
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
