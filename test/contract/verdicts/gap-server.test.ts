// A server that differs from the fake only where the spec is silent (another error shape, 422
// for 400, a text/plain token, text error bodies): notes only, the token flow runs, nothing is
// inconclusive, so the run passes; --strict makes the notes fail it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runContract } from '../../../src/contract/run/run-contract.js';
import { statusOf, type RunResult } from '../../../src/contract/run/results.js';
import { startBreakingProxy, type Breakage, type RunningProxy } from '../broken/breaking-proxy.js';
import { ADMIN, listeningFake, VIEWER, type ListeningFake } from '../helpers/fake.js';

const gapsOnly: Breakage = {
  response: (request, response) => {
    if (request.method === 'POST' && request.url.pathname.endsWith('/auth-token') && response.status === 200) {
      return { ...response, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: JSON.parse(response.body) as string };
    }
    if (response.status < 400) return response;
    const status = response.status === 400 ? 422 : response.status;
    // Reads get text error bodies; writes get JSON errors of another shape.
    if (request.method === 'GET') return { status, headers: { 'content-type': 'text/plain; charset=utf-8' }, body: `Error ${status}` };
    return { status, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: { code: status, reason: 'refused' } }) };
  },
};

let fake: ListeningFake;
let proxy: RunningProxy;

beforeAll(async () => {
  fake = await listeningFake();
  proxy = await startBreakingProxy(fake.url, gapsOnly);
});
afterAll(async () => {
  await proxy.close();
  await fake.close();
});

const summary = (result: RunResult) => result.outcomes.filter((o) => statusOf(o) !== 'passed').map((o) => `${o.operationId} ${o.check} ${statusOf(o)} ${o.failures[0]?.message ?? o.skipped ?? o.inconclusive ?? ''}`);

describe('a server with only gap differences', () => {
  it('passes with notes, runs the token flow, and leaves nothing inconclusive', async () => {
    fake.app.fake.state.reset();
    const result = await runContract({ baseUrl: proxy.url, admin: ADMIN, low: VIEWER, seed: 7 });
    expect(result.violations, JSON.stringify(summary(result), null, 1)).toBe(0);
    expect(result.inconclusive, JSON.stringify(summary(result), null, 1)).toBe(0);
    expect(result.notes).toBeGreaterThan(0);
    expect(result.exitCode).toBe(0);
    const tokenFlow = result.outcomes.find((o) => o.check === 'case/token-flow');
    expect(tokenFlow && statusOf(tokenFlow)).toBe('passed');
    expect(tokenFlow?.exchanges).toBe(8);
    const noted = new Set(result.outcomes.filter((o) => statusOf(o) === 'noted').map((o) => o.check));
    // The text token and text error bodies (content-type), the error shape (response-schema), 422 (status-documented).
    expect([...noted]).toEqual(expect.arrayContaining(['content-type', 'response-schema', 'status-documented']));
    for (const f of result.outcomes.flatMap((o) => o.failures)) expect(f.citation.source, `${f.check}: ${f.message}`).toBe('gap-fill');
  });

  it('fails with --strict', async () => {
    fake.app.fake.state.reset();
    const result = await runContract({ baseUrl: proxy.url, admin: ADMIN, low: VIEWER, seed: 7, strict: true });
    expect(result).toMatchObject({ violations: 0, inconclusive: 0, exitCode: 1 });
  });
});
