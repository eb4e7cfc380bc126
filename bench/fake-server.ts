// The fake as the benchmarks run it: the same `startServer` as `monitoring-api-kit serve`,
// with a record count, request logging off and rate limits so high that a load test is
// counted (the limiter runs on every request) but never blocked.
// Usage: node --import tsx bench/fake-server.ts --port <n> [--records <n>] [--seed <n>]
// Prints one JSON line on stdout when listening: {"port", "buildMs", "records"}. With an IPC
// channel it answers {type: "stats"} with the session store's size and bound.
import { parseArgs } from 'node:util';
import { startServer } from '../src/cli/serve.js';
import { rateLimitPresets, type RateLimitRule } from '../src/store/rate-limit-rules.js';

const { values } = parseArgs({
  options: { port: { type: 'string', default: '0' }, records: { type: 'string' }, seed: { type: 'string' } },
});

/** The default (lenient) preset's keys at the highest limit the rules allow, a million a second: counted on every request, never reached. */
const benchRateLimit: RateLimitRule[] = rateLimitPresets().lenient.map((rule) => ({ ...rule, limit: 1_000_000, windowSeconds: 1 }));

const t0 = performance.now();
const { app } = await startServer({
  port: Number(values.port),
  host: '127.0.0.1',
  print: () => {},
  fake: {
    logger: false,
    rateLimit: benchRateLimit,
    ...(values.records !== undefined ? { records: Number(values.records) } : {}),
    ...(values.seed !== undefined ? { seed: Number(values.seed) } : {}),
  },
});
const address = app.server.address();
const port = typeof address === 'object' && address ? address.port : 0;
console.log(JSON.stringify({ port, buildMs: Math.round(performance.now() - t0), records: app.fake.state.data.events.size }));

process.on('message', (message: { type?: string }) => {
  if (message?.type === 'stats') {
    process.send?.({ type: 'stats', sessions: app.fake.state.sessions.size, sessionsMax: app.fake.options.sessions.max, heapUsed: process.memoryUsage().heapUsed });
  }
});
const stop = () => void app.close().then(() => process.disconnect?.());
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
