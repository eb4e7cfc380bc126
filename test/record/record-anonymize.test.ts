// --anonymize: IP addresses into the documentation ranges, names, logins and ids into stand-ins,
// one original always one stand-in; OIDs, types, timestamps and record ids as they were.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFake, type Fake } from '../../src/fake/create-fake.js';
import type { BlockedRequest, EventLogRecord, SnmpTrapRecord } from '../../src/spec/types.js';
import { documentedGet, readRecording, record, scratch, validator, type Recording } from './helpers.js';

let fake: Fake;
let original: EventLogRecord[];
let originalBlocks: BlockedRequest[];
let recording: Recording;
let stdout: string;

const DOCUMENTATION = /^(192\.0\.2|198\.51\.100|203\.0\.113)\.\d{1,3}$/;

/** Every pair (original, stand-in): one stand-in per original and one original per stand-in. */
function expectOneToOne(pairs: readonly [unknown, unknown][]): void {
  const forward = new Map<unknown, Set<unknown>>();
  const backward = new Map<unknown, Set<unknown>>();
  for (const [a, b] of pairs) {
    forward.set(a, (forward.get(a) ?? new Set()).add(b));
    backward.set(b, (backward.get(b) ?? new Set()).add(a));
  }
  for (const [a, set] of forward) expect([...set], String(a)).toHaveLength(1);
  for (const [b, set] of backward) expect([...set], String(b)).toHaveLength(1);
}

beforeAll(async () => {
  fake = await createFake({ seed: 9, records: 300 });
  const { baseUrl } = await fake.listen();
  original = (await documentedGet('getEventLog', `${baseUrl}/event-log`)) as EventLogRecord[];
  originalBlocks = (await documentedGet('getLimitBlockLog', `${baseUrl}/limit-block-log`)) as BlockedRequest[];
  const out = join(scratch(), 'anonymous');
  const result = await record({ baseUrl, out, anonymize: true });
  expect(result.code, result.stderr).toBe(0);
  stdout = result.stdout;
  recording = readRecording(out);
});
afterAll(() => fake.close());

describe('record --anonymize', () => {
  it('keeps record ids, types, timestamps, OIDs and entity types; the records stay valid', () => {
    const events = recording.events as unknown as EventLogRecord[];
    expect(events.map((r) => [r._id, r.type, r.timestamp, r.entity.entityType])).toEqual(original.map((r) => [r._id, r.type, r.timestamp, r.entity.entityType]));
    const traps = (list: EventLogRecord[]) => list.filter((r): r is SnmpTrapRecord => r.type === 'snmp-trap');
    const oids = (list: EventLogRecord[]) => traps(list).map((r) => [r.payload.trapOid, r.payload.bindings.map((b) => [b.oid, b.type, b.type === 'ObjectIdentifier' ? b.value : typeof b.value])]);
    expect(oids(events)).toEqual(oids(original));
    for (const r of events) expect(validator.validateNamed('EventLogRecord', r)).toEqual([]);
    expect(recording.manifest.anonymized).toBe(true);
  });

  it('maps IP addresses into the documentation ranges, one address to one address', () => {
    const events = recording.events as unknown as SnmpTrapRecord[];
    const pairs: [unknown, unknown][] = [];
    original.forEach((r, i) => {
      if (r.type !== 'snmp-trap') return;
      const mapped = events[i]!.payload.senderAddress;
      expect(mapped).toMatch(DOCUMENTATION);
      pairs.push([r.payload.senderAddress, mapped]);
      r.payload.bindings.forEach((b, j) => b.type === 'IpAddress' && pairs.push([b.value, events[i]!.payload.bindings[j]!.value]));
    });
    originalBlocks.forEach((b, i) => b.ip !== undefined && pairs.push([b.ip, recording.blocks![i]!.ip]));
    expect(pairs.length).toBeGreaterThan(50);
    expectOneToOne(pairs);
  });

  it('maps entity names and ids, agent ids, logins and user ids consistently, in the fields and in free text', () => {
    const events = recording.events as unknown as EventLogRecord[];
    expectOneToOne(original.map((r, i) => [r.entity.entityName, events[i]!.entity.entityName]));
    expectOneToOne(original.map((r, i) => [r.entity.entityId, events[i]!.entity.entityId]));
    expectOneToOne(original.map((r, i) => [r.agentId, events[i]!.agentId]));
    expect(events.every((r, i) => r.entity.entityName !== original[i]!.entity.entityName && r.agentId !== original[i]!.agentId)).toBe(true);
    const blocks = recording.blocks as unknown as BlockedRequest[];
    expectOneToOne(originalBlocks.flatMap((b, i) => (b.login === undefined ? [] : [[b.login, blocks[i]!.login] as [unknown, unknown]])));
    expectOneToOne(originalBlocks.flatMap((b, i) => (b.user === undefined ? [] : [[b.user, blocks[i]!.user] as [unknown, unknown]])));
    // No original entity name, login or address is left anywhere, free text included.
    const text = Object.values(recording.texts).join('\n');
    const originals = new Set<string>([
      ...original.map((r) => r.entity.entityName).filter((n: string) => n.length >= 3),
      ...originalBlocks.flatMap((b) => [b.login, b.ip]).filter((v): v is string => v !== undefined),
      ...original.flatMap((r) => (r.type === 'snmp-trap' ? [String(r.payload.senderAddress)] : [])),
      'admin',
    ]);
    for (const value of originals) expect(text.includes(`"${value}"`) || new RegExp(`[\\s:]${value.replace(/[.]/g, '\\.')}[\\s,.)]`).test(text), value).toBe(false);
  });

  it('gives the recorded user a stand-in login and id, and says so', () => {
    const [user] = recording.users!;
    expect(user).toMatchObject({ login: expect.stringMatching(/^user-\d+$/), id: expect.stringMatching(/^[0-9a-f]{24}$/), permissions: [...fake.users.admin!.permissions] });
    expect(user!.id).not.toBe(fake.users.admin!.id);
    expect(stdout).toContain(`Log in to it as ${String(user!.login)} with the placeholder password`);
    expect(stdout).toMatch(/^IP addresses, entity names, logins and ids are anonymized\.$/m);
  });
});
