// `record` against a listening fake whose data was changed through the API first: the recording
// holds exactly the fake's event log, block log and user, read-only, with no secret in any file.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFake, type Fake } from '../../src/fake/create-fake.js';
import { RECORDING_FILES } from '../../src/shared/recording-layout.js';
import { runBin } from '../helpers/run-bin.js';
import { basic, documentedGet, readRecording, record, scratch, validator } from './helpers.js';

const ADMIN = basic('admin', 'admin-password');

let fake: Fake;
let baseUrl: string;
let token: string;
const requests: { method: string; url: string }[] = [];
const sessionIds: string[] = [];

async function api(method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${baseUrl}${path}`, { method, headers: { authorization: ADMIN, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });
}

beforeAll(async () => {
  fake = await createFake({ seed: 5, records: 400 });
  ({ baseUrl } = await fake.listen());
  // Some records edited and added through the API, and an API token for the administrator.
  const page = (await documentedGet('getEventLog', `${baseUrl}/event-log?type=1&limit=3`)) as { _id: string }[];
  for (const r of page) expect((await api('PATCH', `/event-log/${r._id}/payload`, { text: `edited ${r._id}` })).status).toBe(204);
  await fake.addRecords([
    { type: 'mqtt-message', agentId: 'a-new-agent', payload: { topic: 'lab/new', message: 'added', qos: 0 }, entity: { entityId: 'e-new', entityType: 2, entityName: 'lab-sensor' } },
  ]);
  const admin = fake.users.admin!;
  const created = await api('POST', `/users/${admin.id}/auth-token`);
  token = JSON.parse(await created.text()) as string;
  // The session ids the recorder is given, to look for them in the files.
  const sessions = fake.app.fake.state.sessions;
  const create = sessions.create.bind(sessions);
  sessions.create = (userId) => {
    const session = create(userId);
    sessionIds.push(session.id, session.csrf);
    return session;
  };
  fake.app.server.on('request', (request: { method?: string; url?: string }) => requests.push({ method: request.method ?? '', url: request.url ?? '' }));
});
afterAll(() => fake.close());

describe('record from a listening fake', () => {
  const parent = scratch();
  const out = join(parent, 'staging');
  let result: Awaited<ReturnType<typeof record>>;

  beforeAll(async () => {
    result = await record({ baseUrl, out, pageSize: 100 });
  });

  it('exits 0 with progress on stderr and a summary with the placeholder password on stdout', () => {
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(/^Recording http:\/\/127\.0\.0\.1:\d+\/node\/api \(read-only/);
    expect(result.stderr).toMatch(/^event log: 40[48] records in \d+\.\d s$/m);
    expect(result.stderr).toMatch(/^block log: \d+ records in/m);
    expect(result.stdout).toMatch(/^Recorded \d+ event log records, \d+ blocked requests and the current user into .*staging$/m);
    expect(result.stdout).toMatch(/^Log in to it as admin with the placeholder password recorded-[\w-]+ \(the real password is not stored\)\.$/m);
  });

  it('holds exactly the event log, the block log and the user the fake serves', async () => {
    const recording = readRecording(out);
    const all = await documentedGet('getEventLog', `${baseUrl}/event-log`);
    expect(recording.events).toEqual(all);
    expect(recording.events.filter((r) => String((r.payload as { text?: string }).text).startsWith('edited '))).toHaveLength(3);
    expect(recording.events.some((r) => (r.entity as { entityName: string }).entityName === 'lab-sensor')).toBe(true);
    expect(recording.blocks).toEqual(await documentedGet('getLimitBlockLog', `${baseUrl}/limit-block-log`));
    const admin = fake.users.admin!;
    expect(recording.users).toEqual([{ id: admin.id, login: 'admin', permissions: [...admin.permissions], password: expect.stringMatching(/^recorded-/) }]);
    expect(result.stdout).toContain(String(recording.users?.[0]?.password));
    for (const r of recording.events) expect(validator.validateNamed('EventLogRecord', r)).toEqual([]);
  });

  it('writes a manifest: the source without credentials, the range, the counts, the versions', () => {
    const { manifest } = readRecording(out);
    expect(manifest).toMatchObject({
      format: 1,
      complete: true,
      kit: { name: 'monitoring-api-kit', version: expect.any(String) },
      document: { version: expect.any(String) },
      source: baseUrl,
      counts: { events: readRecording(out).events.length, invalidKept: 0, invalidSkipped: 0, blocks: readRecording(out).blocks?.length, users: 1 },
      maxRecordsReached: false,
      anonymized: false,
      blockLog: 'recorded',
      invalid: [],
    });
    expect(manifest.timeRange.to).toBeGreaterThanOrEqual(manifest.recordsSpan!.last);
    expect(Object.keys(readRecording(out).texts).sort()).toEqual([RECORDING_FILES.blocks, RECORDING_FILES.events, RECORDING_FILES.manifest, RECORDING_FILES.users].sort());
  });

  it('only read: GET requests plus one session log-in and log-out', () => {
    const writes = requests.filter((r) => r.method !== 'GET');
    expect(writes).toEqual([
      { method: 'POST', url: '/node/api/users/session' },
      { method: 'DELETE', url: '/node/api/users/session' },
    ]);
    expect(requests.filter((r) => r.method === 'GET').length).toBeGreaterThan(5);
  });

  it('no file holds the password, the token or a session id, in any spelling', () => {
    expect(token).toMatch(/^[0-9a-f-]{36}$/);
    expect(sessionIds.length).toBeGreaterThanOrEqual(2);
    const secrets = ['admin-password', Buffer.from('admin:admin-password').toString('base64'), token, ...sessionIds];
    for (const [name, text] of Object.entries(readRecording(out).texts)) {
      for (const secret of secrets) expect(text.includes(secret), `${name} holds ${secret}`).toBe(false);
    }
    expect(result.stdout + result.stderr).not.toContain('admin-password');
  });

  it('refuses an --out folder that is not empty, before asking the server anything', async () => {
    const before = requests.length;
    const again = await record({ baseUrl, out });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/--out .*staging is not empty: give a new or empty folder; nothing was written\n$/);
    expect(requests.length).toBe(before);
  });
});

describe('record from the command line', () => {
  it('takes the credentials from the environment like check, and --since/--until bound the records', async () => {
    const parent = scratch();
    const out = join(parent, 'window');
    const all = (await documentedGet('getEventLog', `${baseUrl}/event-log`)) as { timestamp: number }[];
    const since = all[100]!.timestamp;
    const until = all[199]!.timestamp;
    const { code, stdout, stderr } = await runBin(['record', '--base-url', baseUrl, '--out', out, '--since', String(since), '--until', new Date(until).toISOString(), '--page-size', '30'], {
      MONITORING_API_LOGIN: 'admin',
      MONITORING_API_PASSWORD: 'admin-password',
    });
    expect(code, stderr).toBe(0);
    const recording = readRecording(out);
    expect(recording.events).toEqual(all.filter((r) => r.timestamp >= since && r.timestamp <= until));
    expect(recording.manifest.timeRange).toEqual({ from: since, to: until });
    expect(recording.blocks?.every((b) => (b.timestamp as number) >= since && (b.timestamp as number) <= until)).toBe(true);
    expect(stdout).toMatch(/^Recorded 100 event log records/m);
  }, 30_000);
});
