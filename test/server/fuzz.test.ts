import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFake, type FakeApp } from '../../src/server/build.js';
import { runFuzz, UNREACHABLE_LIMITS } from './fuzz/run-fuzz.js';
import { spec } from './helpers.js';

/** Requests of the main run (FUZZ_RUNS to change); `npm run fuzz` sends as many with a new seed each time. */
const RUNS = Number(process.env.FUZZ_RUNS ?? 20_000);
const SEED = Number(process.env.FUZZ_SEED ?? 20_240_601);

let app: FakeApp;
let strict: FakeApp;
beforeAll(async () => {
  app = await buildFake({ spec, rateLimit: UNREACHABLE_LIMITS });
  strict = await buildFake({ spec, rateLimit: 'strict' });
});
afterAll(async () => {
  await app.close();
  await strict.close();
});

describe('fuzzing every operation with malformed and random requests', () => {
  it(`answers ${RUNS} generated requests without a 5xx, each as the document allows`, async () => {
    const report = await runFuzz(app, { runs: RUNS, seed: SEED });
    const total = Object.values(report.statuses).reduce((a, b) => a + b, 0);
    expect(total).toBe(RUNS);
    // The generator reaches handlers, the guard and validation alike, not only one of them.
    for (const status of ['200', '204', '400', '401', '403', '404', '405', '413', '415']) {
      expect(report.statuses[status] ?? 0, `answers with status ${status}`).toBeGreaterThan(0);
    }
  }, 120_000);

  it('answers as the document allows while blocking (strict limits, mostly 429)', async () => {
    const report = await runFuzz(strict, { runs: 500, seed: SEED });
    expect(report.statuses['429'] ?? 0).toBeGreaterThan(250);
  });

  it('keeps serving afterwards', async () => {
    const response = await app.inject({ url: '/node/api/users/current', headers: { authorization: `Basic ${Buffer.from('viewer:viewer-password').toString('base64')}` } });
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({ login: 'viewer' });
  });
});
