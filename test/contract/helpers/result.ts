// A RunResult built from synthetic exchanges through the real recorder, for reporter tests.
import { coverageOf } from '../../../src/contract/run/coverage.js';
import { createRecorder } from '../../../src/contract/run/recorder.js';
import { totalsOf, type RunResult } from '../../../src/contract/run/results.js';
import { createSecrets } from '../../../src/shared/redaction/secret-values.js';
import type { Applied, Exchange } from '../../../src/contract/types.js';
import { specAndValidator } from './synthetic.js';

export async function resultOf(entries: { exchange: Exchange; checks?: Applied[] }[], strict = false): Promise<RunResult> {
  const { spec, validator } = await specAndValidator();
  const recorder = createRecorder({ spec, validator }, createSecrets());
  for (const e of entries) recorder.evaluate(e.exchange, { checks: e.checks });
  recorder.skip('getLimitBlockLog', 'block-recorded', 'rate limits are probed only with --probe-limits');
  recorder.inconclusive('createAuthToken', 'case/token-flow', 'step "create a token" captured no "first"; the later steps did not run');
  const outcomes = recorder.outcomes();
  return {
    baseUrl: 'http://127.0.0.1:4010',
    seed: 4242,
    strict,
    safety: 'writes allowed (loopback target)',
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 1,
    requests: entries.length,
    outcomes,
    coverage: coverageOf(spec, entries.map((e) => e.exchange), outcomes),
    ...totalsOf(outcomes, strict),
    exchanges: entries.map((e) => e.exchange),
  };
}
