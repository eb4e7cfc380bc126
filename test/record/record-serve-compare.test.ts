// The whole round trip: record a listening fake whose data was changed through the API, serve
// the recording in a second fake, and `check --compare-with` finds no difference over the event
// log and the block log: the same queries get the same answers.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DriftReport } from '../../src/contract/differential.js';
import { createFake, type Fake } from '../../src/fake/create-fake.js';
import { runBin } from '../helpers/run-bin.js';
import { serveBin, type ServedBin } from '../helpers/serve-bin.js';
import { basic, documentedGet, readRecording, scratch } from './helpers.js';

let source: Fake;
let sourceUrl: string;
let served: ServedBin;
let out: string;

beforeAll(async () => {
  source = await createFake({ seed: 3, records: 500 });
  ({ baseUrl: sourceUrl } = await source.listen());
  const traps = (await documentedGet('getEventLog', `${sourceUrl}/event-log?type=1&limit=4&skip=10`)) as { _id: string }[];
  for (const r of traps) {
    const patched = await fetch(`${sourceUrl}/event-log/${r._id}/payload`, { method: 'PATCH', headers: { authorization: basic('admin', 'admin-password'), 'content-type': 'application/json' }, body: JSON.stringify({ text: `acknowledged ${r._id}` }) });
    expect(patched.status).toBe(204);
  }
  await source.addRecords([
    { type: 'mqtt-message', agentId: 'lab-agent', payload: { topic: 'lab/temp', message: '21.5', qos: 1 }, entity: { entityId: 'lab-1', entityType: 2, entityName: 'lab-thermometer' } },
    { type: 'snmp-trap', agentId: 'lab-agent', payload: { senderAddress: '192.0.2.99', trapOid: '1.3.6.1.6.3.1.1.5.3', text: 'lab link down', bindings: [] }, entity: { entityId: 'lab-2', entityType: 1, entityName: 'lab-switch' } },
  ]);
  out = join(scratch(), 'staging');
  const recorded = await runBin(['record', '--base-url', sourceUrl, '--out', out, '--quiet'], { MONITORING_API_LOGIN: 'admin', MONITORING_API_PASSWORD: 'admin-password' });
  expect(recorded.code, recorded.stderr).toBe(0);
  served = await serveBin(['--recording', out]);
}, 60_000);
afterAll(async () => {
  await served?.stop();
  await source.close();
});

describe('record, serve the recording, compare', () => {
  it('check --compare-with over the event log and the block log finds no difference', async () => {
    const recording = readRecording(out);
    expect(recording.events.filter((r) => String((r.payload as { text?: string }).text).startsWith('acknowledged '))).toHaveLength(4);
    const password = String(recording.users?.[0]?.password);
    const { code, stdout, stderr } = await runBin(
      ['check', '--base-url', sourceUrl, '--compare-with', served.baseUrl, '--only', 'event-log,limit-block-log', '--reporter', 'json', '--quiet'],
      { MONITORING_API_LOGIN: 'admin', MONITORING_API_PASSWORD: 'admin-password', MONITORING_API_COMPARE_LOGIN: 'admin', MONITORING_API_COMPARE_PASSWORD: password },
    );
    expect(code, stderr).toBe(0);
    const report = JSON.parse(stdout) as { drift: DriftReport; outcomes: { check: string }[]; violations: number };
    expect(report.violations).toBe(0);
    expect(report.drift.compared).toBeGreaterThan(20);
    expect(report.drift.unpaired).toBe(0);
    expect(report.drift.groups).toEqual([]);
    expect(report.outcomes.filter((o) => o.check === 'differs')).toEqual([]);
    expect(stdout).not.toContain(password);

    // The same comparison sees one record changed on the served side.
    const [newest] = (await documentedGet('getEventLog', `${served.baseUrl}/event-log?type=1&sortField=timestamp&sortDirection=desc&limit=1`, basic('admin', password))) as { _id: string }[];
    const patched = await fetch(`${served.baseUrl}/event-log/${newest!._id}/payload`, { method: 'PATCH', headers: { authorization: basic('admin', password), 'content-type': 'application/json' }, body: JSON.stringify({ text: 'changed offline' }) });
    expect(patched.status).toBe(204);
    const again = await runBin(['check', '--base-url', sourceUrl, '--compare-with', served.baseUrl, '--only', 'event-log', '--reporter', 'json', '--quiet'], {
      MONITORING_API_LOGIN: 'admin',
      MONITORING_API_PASSWORD: 'admin-password',
      MONITORING_API_COMPARE_LOGIN: 'admin',
      MONITORING_API_COMPARE_PASSWORD: password,
    });
    const drift = (JSON.parse(again.stdout) as { drift: DriftReport }).drift;
    expect(drift.groups.find((g) => g.kind === 'value')?.example.second).toMatch(/changed offline/);
  }, 120_000);
});
