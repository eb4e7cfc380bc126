// New connections of `npm run bench:hostile`, timed from a process of their own: the process that
// opens thousands of slow connections at once would delay its own probes, and their times would
// be its own, not the fake's. Asks for GET /users/current on a new connection every
// <intervalMs> until its stdin ends; prints one JSON line per answer: { at, status, ms }, `at`
// the epoch time (ms, fractional) the request was started.
// Usage: node --import tsx bench/probe-client.ts <origin> <intervalMs>
import { connect, send } from './lib/http.js';
import { adminBasic } from './lib/servers.js';

const [origin = '', interval = '25'] = process.argv.slice(2);
const intervalMs = Number(interval);
let running = true;
process.stdin.on('end', () => (running = false)).resume();
while (running) {
  const at = performance.timeOrigin + performance.now();
  // A new connection each time: over a cap, it is the new connections that would be refused.
  const client = connect(origin);
  const answer = await send(client, '/node/api/users/current', { headers: { authorization: adminBasic } }).catch(() => ({ status: 0, ms: performance.timeOrigin + performance.now() - at }));
  await client.close();
  process.stdout.write(`${JSON.stringify({ at, status: answer.status, ms: answer.ms })}\n`);
  await new Promise((resolve) => setTimeout(resolve, intervalMs));
}
