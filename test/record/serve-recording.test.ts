// A recording served by the fake: exactly its data (no generated records, no kit fixtures), with
// every query, PATCH and limit working as usual; through createFake({ recording }) and `serve --recording`.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFake, type Fake } from '../../src/fake/create-fake.js';
import { createManualClock } from '../../src/shared/clock.js';
import { RECORDING_FILES } from '../../src/shared/recording-layout.js';
import { serveBin } from '../helpers/serve-bin.js';
import { basic, documentedGet, readRecording, record, scratch, validator } from './helpers.js';

let source: Fake;
let sourceUrl: string;
let out: string;
let password: string;

async function documented(operationId: string, url: string, init: RequestInit = {}): Promise<{ status: number; body: string }> {
  const response = await fetch(url, init);
  const body = await response.text();
  expect(validator.checkResponse(operationId, { status: response.status, headers: Object.fromEntries(response.headers), body })).toEqual([]);
  return { status: response.status, body };
}

beforeAll(async () => {
  source = await createFake({ seed: 11, records: 250 });
  ({ baseUrl: sourceUrl } = await source.listen());
  const page = (await documentedGet('getEventLog', `${sourceUrl}/event-log?type=1&limit=2`)) as { _id: string }[];
  for (const r of page) {
    const patched = await fetch(`${sourceUrl}/event-log/${r._id}/payload`, { method: 'PATCH', headers: { authorization: basic('admin', 'admin-password'), 'content-type': 'application/json' }, body: JSON.stringify({ text: `seen ${r._id}` }) });
    expect(patched.status).toBe(204);
  }
  out = join(scratch(), 'rec');
  const result = await record({ baseUrl: sourceUrl, out, quiet: true });
  expect(result.code, result.stderr).toBe(0);
  password = String(readRecording(out).users?.[0]?.password);
}, 30_000);
afterAll(() => source.close());

describe('createFake({ recording })', () => {
  let fake: Fake;
  let url: string;
  let auth: string;
  beforeAll(async () => {
    fake = await createFake({ recording: out });
    ({ baseUrl: url } = await fake.listen());
    auth = basic('admin', password);
  });
  afterAll(() => fake.close());

  it('serves exactly the recorded event log and block log, at their recorded times', async () => {
    const recording = readRecording(out);
    expect(await documentedGet('getEventLog', `${url}/event-log`, auth)).toEqual(recording.events);
    expect(await documentedGet('getLimitBlockLog', `${url}/limit-block-log`, auth)).toEqual(recording.blocks);
    expect(recording.events.length).toBe(250 + 7);
  });

  it('logs in the recorded user with the placeholder password only; the seeded users are not there', async () => {
    const me = (await documentedGet('getCurrentUser', `${url}/users/current`, auth)) as { login: string };
    expect(me.login).toBe('admin');
    expect(Object.keys(fake.users)).toEqual(['admin']);
    expect((await documented('getCurrentUser', `${url}/users/current`, { headers: { authorization: basic('admin', 'admin-password') } })).status).toBe(401);
    expect((await documented('getCurrentUser', `${url}/users/current`, { headers: { authorization: basic('operator', 'operator-password') } })).status).toBe(401);
  });

  it('answers every query as the recorded server did: filters, sorting, paging, time ranges', async () => {
    const all = (await documentedGet('getEventLog', `${sourceUrl}/event-log`)) as { timestamp: number }[];
    const queries = [
      'type=1&limit=5&skip=3',
      'sortField=agentId&sortDirection=desc&limit=20',
      `from=${all[40]!.timestamp}&to=${all[90]!.timestamp}&type=2`,
      `filter=${encodeURIComponent(JSON.stringify({ 'payload.text': { $regex: 'seen', $options: 'i' } }))}`,
    ];
    for (const q of queries) {
      expect(await documentedGet('getEventLog', `${url}/event-log?${q}`, auth), q).toEqual(await documentedGet('getEventLog', `${sourceUrl}/event-log?${q}`));
    }
    expect(await documentedGet('getLimitBlockLog', `${url}/limit-block-log?ip=true&limit=3`, auth)).toEqual(await documentedGet('getLimitBlockLog', `${sourceUrl}/limit-block-log?ip=true&limit=3`));
  });

  it('takes PATCH as usual, refuses bad input, and goes back to the recording on reset', async () => {
    const [trap] = (await documentedGet('getEventLog', `${url}/event-log?type=1&limit=1`, auth)) as { _id: string }[];
    const patch = (body: unknown) => documented('updateEventLogPayload', `${url}/event-log/${trap!._id}/payload`, { method: 'PATCH', headers: { authorization: auth, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect((await patch({ text: 'changed offline' })).status).toBe(204);
    expect((await patch({ text: 5 })).status).toBe(400);
    const [after] = (await documentedGet('getEventLog', `${url}/event-log?type=1&limit=1`, auth)) as { payload: { text: string } }[];
    expect(after!.payload.text).toBe('changed offline');
    expect((await documented('getEventLog', `${url}/event-log?limit=abc`, { headers: { authorization: auth } })).status).toBe(400);
    await fake.reset();
    expect(await documentedGet('getEventLog', `${url}/event-log`, auth)).toEqual(readRecording(out).events);
  });

  it('limits rates as usual: a block is answered 429 and joins the recorded block log', async () => {
    const limited = await createFake({ recording: out, rateLimit: [{ key: 'uri', limit: 2, windowSeconds: 10, blockSeconds: 60 }] });
    try {
      const headers = { authorization: basic('admin', password) };
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        const response = await limited.inject({ url: '/node/api/users/current', headers });
        expect(validator.checkResponse('getCurrentUser', { status: response.statusCode, headers: response.headers as Record<string, string>, body: response.body })).toEqual([]);
        statuses.push(response.statusCode);
      }
      expect(statuses).toEqual([200, 200, 429]);
      const recorded = readRecording(out).blocks!;
      const blocks = (await limited.blocks()).log;
      expect(blocks.slice(0, recorded.length)).toEqual(recorded);
      expect(blocks.slice(recorded.length)).toMatchObject([{ uri: '/node/api/users/current' }]);
    } finally {
      await limited.close();
    }
  });

  it('adds generated records only when asked, ending where the recording ends', async () => {
    const more = await createFake({ recording: out, records: 30 });
    try {
      const recording = readRecording(out);
      const events = (await documentedGet('getEventLog', `${(await more.listen()).baseUrl}/event-log`, basic('admin', password))) as { _id: string; timestamp: number }[];
      expect(events).toHaveLength(recording.events.length + 30);
      const recorded = new Set(recording.events.map((r) => r._id));
      const generated = events.filter((r) => !recorded.has(r._id)).map((r) => r.timestamp);
      const { last } = recording.manifest.recordsSpan!;
      // Spread over the week before the recording's newest instant, the last one in the last thirtieth of it.
      expect(Math.max(...generated)).toBeLessThanOrEqual(last);
      expect(Math.max(...generated)).toBeGreaterThan(last - (7 * 86_400_000) / 30);
      expect(Math.min(...generated)).toBeGreaterThanOrEqual(last - 7 * 86_400_000);
    } finally {
      await more.close();
    }
  });

  it('moves to the anchor as a whole: the newest record at the anchor, offsets and ids kept', async () => {
    const clock = createManualClock(Date.UTC(2032, 1, 3));
    const moved = await createFake({ recording: out, anchor: 'now', clock });
    try {
      const recording = readRecording(out);
      const shift = clock.now() - recording.manifest.recordsSpan!.last;
      const events = await documentedGet('getEventLog', `${(await moved.listen()).baseUrl}/event-log`, basic('admin', password));
      expect(events).toEqual(recording.events.map((r) => ({ ...r, timestamp: (r.timestamp as number) + shift })));
      const blocks = await documentedGet('getLimitBlockLog', `${moved.urls!.baseUrl}/limit-block-log`, basic('admin', password));
      expect(blocks).toEqual(recording.blocks!.map((r) => ({ ...r, timestamp: (r.timestamp as number) + shift })));
    } finally {
      await moved.close();
    }
  });
});

describe('a recording that cannot be served', () => {
  const copy = (change: (dir: string) => void): string => {
    const dir = mkdtempSync(join(tmpdir(), 'bad-recording-'));
    for (const name of Object.values(RECORDING_FILES)) {
      try {
        writeFileSync(join(dir, name), readFileSync(join(out, name)));
      } catch {
        // a file this recording does not have
      }
    }
    change(dir);
    return dir;
  };

  it('is refused with the folder, the file and the record named', async () => {
    const manifest = JSON.parse(readFileSync(join(out, RECORDING_FILES.manifest), 'utf8')) as Record<string, unknown>;
    const partial = copy((dir) => writeFileSync(join(dir, RECORDING_FILES.manifest), JSON.stringify({ ...manifest, complete: false })));
    await expect(createFake({ recording: partial })).rejects.toThrow(/the recording is not complete/);
    const badBlock = copy((dir) => writeFileSync(join(dir, RECORDING_FILES.blocks), JSON.stringify([{ ttl: -1 }])));
    await expect(createFake({ recording: badBlock })).rejects.toThrow(/limit-block-log\.json record 0: field \/ttl must be >= 0/);
    const badEvent = copy((dir) => writeFileSync(join(dir, RECORDING_FILES.events), JSON.stringify([{ _id: 'x', type: 'snmp-trap' }])));
    await expect(createFake({ recording: badEvent })).rejects.toThrow(/events\.json, record 0 \(_id "x"\)/);
    await expect(createFake({ recording: join(out, 'nowhere') })).rejects.toThrow(/cannot read manifest\.json \(no such file\)/);
    // Read as fixture files are: a FIFO in place of a file is refused at once, never waited on.
    const fifo = copy((dir) => {
      rmSync(join(dir, RECORDING_FILES.blocks));
      execFileSync('mkfifo', [join(dir, RECORDING_FILES.blocks)]);
    });
    await expect(createFake({ recording: fifo })).rejects.toThrow(/cannot read limit-block-log\.json \(it is a FIFO, not a regular file\)/);
  });

  it("takes the kit's users when the recording has none, and --users over the recording's", async () => {
    const manifest = JSON.parse(readFileSync(join(out, RECORDING_FILES.manifest), 'utf8')) as { files: Record<string, string> };
    const { users: _u, ...files } = manifest.files;
    const dir = copy((d) => {
      rmSync(join(d, RECORDING_FILES.users));
      writeFileSync(join(d, RECORDING_FILES.manifest), JSON.stringify({ ...manifest, files }));
    });
    const withoutUsers = await createFake({ recording: dir });
    const withOthers = await createFake({ recording: out, users: join(dir, 'nowhere.json') }).catch((error: unknown) => error as Error);
    try {
      expect(Object.keys(withoutUsers.users).sort()).toEqual(['admin', 'operator', 'viewer']);
      expect(String(withOthers)).toMatch(/nowhere\.json: cannot read the users file/);
    } finally {
      await withoutUsers.close();
    }
  });

  it('serves the records kept with --keep-invalid', async () => {
    const kept = { _id: 'kept-1', type: 'snmp-trap', agentId: 'a', timestamp: 1_700_000_000_000, payload: { senderAddress: 'not-an-ip', trapOid: '1.3', text: 'odd', bindings: [] }, entity: { entityId: 'e', entityType: 1, entityName: 'n' } };
    const manifest = JSON.parse(readFileSync(join(out, RECORDING_FILES.manifest), 'utf8')) as { files: Record<string, string> };
    const dir = copy((d) => {
      writeFileSync(join(d, RECORDING_FILES.keptInvalid), JSON.stringify([kept]));
      writeFileSync(join(d, RECORDING_FILES.manifest), JSON.stringify({ ...manifest, files: { ...manifest.files, keptInvalid: RECORDING_FILES.keptInvalid } }));
    });
    const fake = await createFake({ recording: dir });
    try {
      // The record breaks the document on purpose (kept with --keep-invalid): the answer is not checked against it.
      const response = await fake.inject({ url: `/node/api/event-log?limit=1`, headers: { authorization: basic('admin', password) } });
      expect((JSON.parse(response.body) as { _id: string }[])[0]?._id).toBe('kept-1');
    } finally {
      await fake.close();
    }
  });
});

describe('serve --recording', () => {
  it('serves the recording with its user, and no generated records', async () => {
    const served = await serveBin(['--recording', out]);
    try {
      const { manifest } = readRecording(out);
      expect(served.output()).toContain(`Recording:    ${out} (${sourceUrl}, recorded ${manifest.recordedAt}: ${manifest.counts.events} event log records, ${manifest.counts.blocks} blocked requests)\n`);
      expect(served.output()).toMatch(new RegExp(`admin +${password}`));
      expect(await documentedGet('getEventLog', `${served.baseUrl}/event-log`, basic('admin', password))).toEqual(readRecording(out).events);
      expect(await documentedGet('getLimitBlockLog', `${served.baseUrl}/limit-block-log`, basic('admin', password))).toEqual(readRecording(out).blocks);
    } finally {
      await served.stop();
    }
  }, 30_000);
});
