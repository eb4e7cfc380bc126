import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { buildFake } from '../../src/server/build.js';
import { controlApiPath, loadSpec, type Spec } from '../../src/spec/index.js';
import { errorExamples } from '../helpers/openapi-examples.js';
import { API, basicOf, spec, USERS } from './helpers.js';

// The error examples of both documents show what clients really get: each is the exact body
// of an answer to one of these requests.
const app = await buildFake({ spec, docs: false, records: 20 });
afterAll(() => app.close());
const control = await loadSpec(controlApiPath);

const inject = (options: InjectOptions) => app.inject(options);
const json = (method: 'POST' | 'PATCH', url: string, payload: string, headers: Record<string, string> = {}) =>
  inject({ method, url, payload, headers: { 'content-type': 'application/json', ...headers } });
const NO_RECORD = '5867948233835d9661c56dc8';
const MQTT_RECORD = '5867948233835d9661c56dc9';
const entity = { entityId: '5867948233835d9661c5e001', entityType: 1, entityName: 'core-sw-01' };
const mqttRecord = { _id: MQTT_RECORD, type: 'mqtt-message', agentId: '5867948233835d9661c50002', payload: { topic: 't', message: 'm', qos: 0 }, entity };
const trapRecord = { type: 'snmp-trap', agentId: '5867948233835d9661c50001', payload: { senderAddress: '192.0.2.17', trapOid: '1.3.6.1.6.3.1.1.5.3', text: 't', bindings: [] }, entity };
const setConfig = (update: object) => json('PATCH', '/__control/config', JSON.stringify(update));

/** The answers of the monitoring API's error examples, in an order that sets up what each needs. */
async function monitoringAnswers(): Promise<LightMyRequestResponse[]> {
  const answers = [
    await inject({ url: `${API}/event-log?limit=abc`, headers: basicOf('viewer') }),
    await inject({ url: `${API}/event-log?filter=${encodeURIComponent('{"$where":"1"}')}`, headers: basicOf('viewer') }),
    await json('POST', `${API}/users/session`, '{x'),
    await inject({ url: `${API}/users/current` }),
    await inject({ url: `${API}/users/current`, headers: { ...basicOf('admin'), cookie: 'sid=7b9d2b27-a47d-4bbe-a2f7-2c63bf356db0' } }),
    await inject({ url: `${API}/limit-block-log`, headers: basicOf('viewer') }),
    await inject({ url: `${API}/users/current`, headers: { ...basicOf('admin'), host: 'evil.example:4010' } }),
    await json('PATCH', `${API}/event-log/${NO_RECORD}/payload`, '{"text":"x"}', basicOf('operator')),
    await json('POST', `${API}/users/session`, JSON.stringify({ login: 'x'.repeat(70_000), password: 'x' })),
    await inject({ method: 'POST', url: `${API}/users/session`, payload: 'x', headers: { 'content-type': 'text/plain' } }),
  ];
  await json('POST', '/__control/event-log', JSON.stringify([mqttRecord]));
  answers.push(await json('PATCH', `${API}/event-log/${MQTT_RECORD}/payload`, '{"text":"x"}', basicOf('operator')));

  await setConfig({ authTokenEnabled: false });
  answers.push(await inject({ url: `${API}/users/current?api-token=32925106-8c56-41d1-8713-410f203e8ce0` }));
  await setConfig({ authTokenEnabled: true, requireCsrf: true });
  const session = await json('POST', `${API}/users/session`, JSON.stringify({ login: USERS.admin.login, password: USERS.admin.password }));
  const cookie = session.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
  answers.push(await inject({ method: 'DELETE', url: `${API}/users/session`, headers: { cookie } }));
  await setConfig({ requireCsrf: false, rateLimit: { rules: [{ key: 'ip', limit: 1, windowSeconds: 60, blockSeconds: 60 }] } });
  await inject({ url: `${API}/users/current`, remoteAddress: '192.0.2.9' });
  answers.push(await inject({ url: `${API}/users/current`, remoteAddress: '192.0.2.9' }));
  await inject({ method: 'POST', url: '/__control/reset' });
  return answers;
}

/** The answers of the control API's error examples. */
async function controlAnswers(): Promise<LightMyRequestResponse[]> {
  const answers = [
    await json('POST', '/__control/event-log', '{}'),
    await json('POST', '/__control/event-log', JSON.stringify([{ ...trapRecord, _id: NO_RECORD }])).then(() =>
      json('POST', '/__control/event-log', JSON.stringify([{ ...trapRecord, _id: undefined }, { ...trapRecord, _id: NO_RECORD }])),
    ),
    await inject({ method: 'DELETE', url: '/__control/blocks?scope=x' }),
    await json('POST', '/__control/event-log', '{x'),
    await inject({ url: '/__control/config', remoteAddress: '203.0.113.5' }),
    await json('POST', '/__control/event-log', `[${' '.repeat(16_777_216)}]`),
    await inject({ method: 'POST', url: '/__control/event-log', payload: '[]', headers: { 'content-type': 'text/plain' } }),
    await inject({ method: 'DELETE', url: '/__control/faults/5867948233835d9661c5f009' }),
  ];
  await inject({ method: 'POST', url: '/__control/reset' });
  return answers;
}

function unproduced(document: Spec, answers: readonly LightMyRequestResponse[]): string[] {
  const bodies = new Set(answers.map((a) => JSON.stringify({ status: a.statusCode, body: JSON.parse(a.body) as unknown })));
  const seen = new Set<string>();
  return errorExamples(document)
    .map(({ where, status, body }) => ({ where, key: JSON.stringify({ status, body }) }))
    .filter(({ key }) => !seen.has(key) && seen.add(key) !== undefined && !bodies.has(key))
    .map(({ where, key }) => `${where}: ${key}`);
}

describe('the error examples of the documents', () => {
  it('are answers the monitoring API really gives', async () => {
    const answers = await monitoringAnswers();
    expect(unproduced(spec, answers), answers.map((a) => `${a.statusCode} ${a.body}`).join('\n')).toEqual([]);
  });

  it('are answers the control API really gives', async () => {
    const answers = await controlAnswers();
    expect(unproduced(control, answers), answers.map((a) => `${a.statusCode} ${a.body.slice(0, 300)}`).join('\n')).toEqual([]);
  });

  it('would notice an example that no answer matches', () => {
    expect(unproduced(spec, []).length).toBeGreaterThan(5);
  });
});
