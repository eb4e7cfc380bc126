// The suite through `prism proxy`: Prism's own response violations are reported too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runContract } from '../../src/contract/run/run-contract.js';
import { startPrism, type RunningPrism } from '../../src/contract/prism.js';
import { startBreakingProxy, type RunningProxy } from './broken/breaking-proxy.js';
import { ADMIN, listeningFake, type ListeningFake } from './helpers/fake.js';

let fake: ListeningFake;
let broken: RunningProxy;
let prism: RunningPrism;

beforeAll(async () => {
  fake = await listeningFake();
  // The current user comes back without its login: Prism must say so.
  broken = await startBreakingProxy(fake.url, {
    response: (r, res) => {
      if (r.url.pathname !== '/node/api/users/current' || res.status !== 200) return res;
      const { login: _dropped, ...rest } = JSON.parse(res.body) as Record<string, unknown>;
      return { ...res, body: JSON.stringify(rest) };
    },
  });
  prism = await startPrism({ mode: 'proxy', target: broken.url });
});
afterAll(async () => {
  await prism?.stop();
  await broken?.close();
  await fake?.close();
});

describe('through prism proxy', () => {
  it('reports the sl-violations of responses as notes beside the suite\'s own verdicts, safety decided by the target', async () => {
    const result = await runContract({ baseUrl: prism.url, targetUrl: 'https://staging.example.com', viaPrism: true, admin: ADMIN, seed: 2, groups: ['authentication'] });
    expect(result.safety).toMatch(/^read-only/);
    const prismNotes = result.outcomes.filter((o) => o.check === 'prism-violations').flatMap((o) => o.failures);
    expect(prismNotes.length).toBeGreaterThan(0);
    expect(prismNotes[0]).toMatchObject({ operationId: 'getCurrentUser', verdict: 'note' });
    expect(prismNotes[0]?.message).toMatch(/login/);
    // The suite's own check finds it too, as a violation: login is in the spec's user table.
    const own = result.outcomes.filter((o) => o.check === 'response-schema' && o.operationId === 'getCurrentUser').flatMap((o) => o.failures);
    expect(own.some((f) => f.verdict === 'violation')).toBe(true);
  });
});
