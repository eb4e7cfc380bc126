import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFake, type FakeApp } from '../../src/server/build.js';
import { runFuzz } from './fuzz/run-fuzz.js';
import { spec } from './helpers.js';

/** Requests per run in npm test; `npm run fuzz` sends 20,000 (and takes --runs and --seed). */
const RUNS = Number(process.env.FUZZ_RUNS ?? 5_000);
const SEED = Number(process.env.FUZZ_SEED ?? 20_240_601);

let app: FakeApp;
beforeAll(async () => {
  app = await buildFake({ spec });
});
afterAll(() => app.close());

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

  it('keeps serving afterwards', async () => {
    const response = await app.inject({ url: '/node/api/users/current', headers: { authorization: `Basic ${Buffer.from('viewer:viewer-password').toString('base64')}` } });
    expect(response.statusCode).toBe(200);
    expect(JSON.parse(response.body)).toMatchObject({ login: 'viewer' });
  });
});
