// The floor of the throughput benchmark: Fastify with nothing but fixed answers, the same
// bytes the fake sent for the same paths (read from a file the benchmark writes).
// With a log level, Fastify's own logger at that level writes to stdout (its default request
// lines at `info`), for comparison with the fake's logging.
// Usage: node --import tsx bench/bare-fastify.ts <port> <bodies.json> [log level]
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

/** Path (without query) -> the fake's response body and content type, as captured. */
export type CapturedBodies = Record<string, { readonly contentType: string; readonly body: string }>;

const [port = '0', file, level] = process.argv.slice(2);
if (!file) throw new Error('usage: bare-fastify.ts <port> <bodies.json> [log level]');
const bodies = JSON.parse(readFileSync(file, 'utf8')) as CapturedBodies;

const app = Fastify({ logger: level === undefined ? false : { level } });
for (const [path, { contentType, body }] of Object.entries(bodies)) {
  // Bytes ready to write, the cheapest answer Fastify can send: nothing can beat it.
  const bytes = Buffer.from(body, 'utf8');
  app.get(path, (_request, reply) => reply.type(contentType).send(bytes));
}
await app.listen({ port: Number(port), host: '127.0.0.1' });
process.once('SIGTERM', () => void app.close());
