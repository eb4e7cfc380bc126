// Every recorded record is checked against the document, and no secret reaches a file even
// when the server echoes it into its records.
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RECORDING_FILES } from '../../src/shared/recording-layout.js';
import type { HostileServer } from '../contract/hostile/hostile-server.js';
import { readRecording, record, scratch, validator } from './helpers.js';
import { miniServer, trap } from './mini-server.js';

let server: HostileServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const T = 1_756_000_000_000;

describe('record checks every record against the document', () => {
  const events = [
    trap(1, T),
    { ...trap(2, T + 1), payload: { ...(trap(2, T + 1).payload as object), trapOid: 'linkDown' } },
    { ...trap(3, T + 2), type: 'syslog' },
    { ...trap(4, T + 3), entity: { entityId: 'e', entityType: '1', entityName: 'x' } },
    trap(5, T + 4),
  ];
  const blocks = [{ ip: '192.0.2.1', timestamp: T, ttl: 60 }, { ip: '192.0.2.2', timestamp: T + 1, ttl: -5 }];

  it('lists invalid records with their first problem and leaves them out', async () => {
    server = await miniServer({ events, blocks });
    const out = join(scratch(), 'checked');
    const { code, stdout } = await record({ baseUrl: server.url, out });
    expect(code).toBe(0);
    expect(stdout).toContain('invalid event-log record 000000000000000000000002 (1756000000001): field /payload/trapOid must match pattern "^[0-9]+(\\.[0-9]+)+$" (skipped)');
    expect(stdout).toContain('invalid event-log record 000000000000000000000003 (1756000000002): field /type must be snmp-trap or mqtt-message (skipped)');
    expect(stdout).toContain('invalid event-log record 000000000000000000000004 (1756000000003): field /entity/entityType must be integer (skipped)');
    expect(stdout).toMatch(/^invalid limit-block-log record \(1756000000001\): field \/ttl must be >= 0 \(skipped\)$/m);
    expect(stdout).toMatch(/^Recorded 2 event log records \(4 invalid skipped, 0 kept\), 1 blocked requests/m);
    const recording = readRecording(out);
    expect(recording.events.map((r) => r._id)).toEqual([trap(1, T)._id, trap(5, T)._id]);
    expect(recording.kept).toBeUndefined();
    expect(recording.manifest.invalid).toHaveLength(4);
    expect(recording.manifest.counts).toMatchObject({ events: 2, invalidSkipped: 4, invalidKept: 0, blocks: 1 });
  });

  it('--keep-invalid keeps apart the invalid records the fake can hold', async () => {
    server = await miniServer({ events, blocks });
    const out = join(scratch(), 'kept');
    const { code, stdout } = await record({ baseUrl: server.url, out, keepInvalid: true });
    expect(code).toBe(0);
    expect(stdout).toContain('record 000000000000000000000002 (1756000000001): field /payload/trapOid must match pattern "^[0-9]+(\\.[0-9]+)+$" (kept)');
    expect(stdout).toContain("record 000000000000000000000003 (1756000000002): field /type must be snmp-trap or mqtt-message; the fake cannot hold it (type must be snmp-trap or mqtt-message) (skipped)");
    const recording = readRecording(out);
    expect(recording.events.map((r) => r._id)).toEqual([trap(1, T)._id, trap(5, T)._id]);
    expect(recording.kept?.map((r) => r._id)).toEqual([trap(2, T)._id, trap(4, T)._id]);
    for (const r of recording.events) expect(validator.validateNamed('EventLogRecord', r)).toEqual([]);
    expect(recording.manifest.files.keptInvalid).toBe(RECORDING_FILES.keptInvalid);
    expect(recording.manifest.counts).toMatchObject({ events: 2, invalidSkipped: 2, invalidKept: 2 });
  });
});

describe('no secret in any written file', () => {
  it('masks the password, the token, the session and csrf ids and URL credentials a server echoes into its records', async () => {
    const password = 'S3cret-Pa55word';
    const token = '32925106-8c56-41d1-8713-410f203e8ce0';
    const sid = 'aaaabbbb-cccc-4ddd-8eee-ffff00001111';
    const csrf = 'csrf-value-2222-3333';
    const echoes = [password, Buffer.from(`admin:${password}`).toString('base64'), token, sid, csrf, encodeURIComponent(password)];
    const events = [
      ...echoes.map((secret, i) => trap(i + 1, T + i, `echo ${secret} end`)),
      trap(20, T + 20, 'GET http://ops:hunter2-pw@10.0.0.9/x and /node/api/users/current?api-token=abcd-1234-efgh and ?auth-token=zz-9999'),
    ];
    const user = { id: '5867948233835d9661c56dc8', login: 'admin', authenticationToken: token, permissions: ['manage-users'] };
    server = await miniServer({ events, blocks: [{ uri: `/node/api/event-log?api-token=${token}`, timestamp: T, ttl: 60 }], user, sid, csrf });
    const out = join(scratch(), 'secret');
    const { code, stdout, stderr } = await record({ baseUrl: server.url, out, password });
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/^8 value\(s\) held a secret and were masked \(\*\*\*\)\.$/m);
    const { texts, events: recorded, users } = readRecording(out);
    for (const [name, text] of Object.entries(texts)) {
      for (const secret of [...echoes, 'hunter2-pw', 'abcd-1234-efgh', 'zz-9999']) expect(text.includes(secret), `${name} holds ${secret}`).toBe(false);
    }
    expect(recorded[0]?.payload).toMatchObject({ text: 'echo *** end' });
    expect(recorded.at(-1)?.payload).toMatchObject({ text: 'GET http://***@10.0.0.9/x and /node/api/users/current?api-token=*** and ?auth-token=***' });
    expect(users).toEqual([{ id: user.id, login: 'admin', permissions: ['manage-users'], password: expect.stringMatching(/^recorded-/) }]);
    expect(stdout + stderr).not.toContain(password);
  });
});
