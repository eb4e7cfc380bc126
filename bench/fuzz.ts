// `npm run fuzz`: the full fuzz run, 20,000 generated requests (npm test sends fewer with a
// fixed seed). Options: --runs 20000  --seed <n> (default: a new one, printed, to replay).
import { parseArgs } from 'node:util';
import { buildFake } from '../src/server/build.js';
import { runFuzz, UNREACHABLE_LIMITS } from '../test/server/fuzz/run-fuzz.js';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '20000' }, seed: { type: 'string' } } });
const runs = Number(values.runs);
const seed = values.seed === undefined ? Math.floor(Math.random() * 2 ** 31) : Number(values.seed);
console.log(`fuzz: ${runs} requests, seed ${seed} (replay with --seed ${seed})`);
const app = await buildFake({ rateLimit: UNREACHABLE_LIMITS });
try {
  const report = await runFuzz(app, { runs, seed });
  const after = await app.inject({ url: '/node/api/users/current', headers: { authorization: `Basic ${Buffer.from('admin:admin-password').toString('base64')}` } });
  if (after.statusCode !== 200) throw new Error(`after the run, GET /users/current answered ${after.statusCode}`);
  console.log(`fuzz: ${report.runs} requests in ${(report.ms / 1000).toFixed(1)} s, no 5xx, every answer as the document allows`);
  console.log(`statuses: ${Object.entries(report.statuses).map(([s, n]) => `${s}×${n}`).join(', ')}`);
} catch (error) {
  console.error((error as Error).message);
  const cause = (error as Error).cause as Error | undefined;
  if (cause) console.error(cause.message);
  process.exitCode = 1;
} finally {
  await app.close();
}
