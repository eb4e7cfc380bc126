import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { defaultEventFixturesPath, FixtureError, loadEventFixtures } from '../../src/seed/fixtures.js';
import { inventory } from '../../src/seed/inventory.js';
import { seedRecords, type SeedRecordsOptions } from '../../src/seed/seed-records.js';
import { createSpecValidator, loadSpec, type SpecValidator } from '../../src/spec/index.js';
import type { EventLogRecord } from '../../src/spec/types.js';

/** The event log's seed: generated records plus fixtures. */
const seedEvents = (options: SeedRecordsOptions) => seedRecords(options).events;

const dir = mkdtempSync(join(tmpdir(), 'event-fixtures-'));
const shipped = JSON.parse(readFileSync(defaultEventFixturesPath, 'utf8')) as EventLogRecord[];

function fixtureFile(name: string, content: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
  return file;
}

async function loadError(paths: string[], validator: SpecValidator): Promise<FixtureError> {
  try {
    await loadEventFixtures(paths, validator);
  } catch (e) {
    expect(e).toBeInstanceOf(FixtureError);
    return e as FixtureError;
  }
  throw new Error('expected the fixtures to be refused');
}

describe('event fixtures', () => {
  let validator: SpecValidator;
  beforeAll(async () => {
    validator = createSpecValidator(await loadSpec());
  });

  it('loads the shipped fixtures, which name inventory devices and sensors as they are', async () => {
    const fixtures = await loadEventFixtures([defaultEventFixturesPath], validator);
    expect(fixtures.length).toBeGreaterThanOrEqual(5);
    const texts = fixtures.map((f) => (f.type === 'snmp-trap' ? f.payload.text : f.payload.message));
    expect(texts.some((t) => /^linkDown: .* core-sw-01/.test(t))).toBe(true);
    expect(texts.some((t) => t.startsWith('authenticationFailure'))).toBe(true);
    expect(texts.some((t) => t.includes('"alarm":true'))).toBe(true);
    for (const f of fixtures) {
      if (f.type === 'snmp-trap') {
        const device = inventory.devices.find((d) => d.agentId === f.agentId);
        expect(f.payload.senderAddress, f._id).toBe(device?.ip);
        const entities = [device?.entity, ...(device?.interfaces.map((p) => p.entity) ?? [])];
        expect(entities, f._id).toContainEqual(f.entity);
      } else {
        const sensor = inventory.sensors.find((s) => s.agentId === f.agentId);
        expect(f.payload.topic, f._id).toBe(sensor?.topic);
        expect(f.entity, f._id).toEqual(sensor?.entity);
      }
    }
  });

  it('merges into the seed; a fixture _id that a generated record has is refused, naming the fixture', async () => {
    const fixtures = await loadEventFixtures([defaultEventFixturesPath], validator);
    expect(seedEvents({ fixtures })).toHaveLength(1000 + fixtures.length);
    const generatedId = seedEvents({ count: 5 })[2]?._id;
    const clash = fixtureFile('clash.json', [{ ...shipped[0], _id: generatedId }]);
    const clashing = await loadEventFixtures([clash], validator);
    expect(() => seedEvents({ count: 5, fixtures: clashing })).toThrow(`Duplicate _id "${generatedId}": ${clash} record 0 has the _id of a generated record (seed 42)`);
    // Made later, the seed is checked at once all the same.
    expect(() => seedEvents({ count: 5, fixtures: clashing })).toThrow(`Duplicate _id "${generatedId}"`);
  });

  it('names the file, the record and the field of an invalid record', async () => {
    const bad = structuredClone(shipped.slice(0, 3)) as EventLogRecord[];
    (bad[1] as { payload: { trapOid: string } }).payload.trapOid = 'linkDown';
    const file = fixtureFile('bad-oid.json', bad);
    const e = await loadError([file], validator);
    expect(e.message).toBe(`Fixture file ${file}, record 1 (_id "${bad[1]?._id}"): field /payload/trapOid must match pattern "^[0-9]+(\\.[0-9]+)+$"`);

    const mqtt = structuredClone(shipped.find((r) => r.type === 'mqtt-message')) as Record<string, unknown>;
    (mqtt.payload as { qos: number }).qos = 3;
    const e2 = await loadError([fixtureFile('bad-qos.json', [mqtt])], validator);
    expect(e2.message).toMatch(/record 0 \(_id "[0-9a-f]{24}"\): field \/payload\/qos must be one of 0, 1, 2/);

    const e3 = await loadError([fixtureFile('no-type.json', [{ ...shipped[0], type: 'syslog' }])], validator);
    expect(e3.message).toMatch(/record 0 .*: field \/type must be snmp-trap or mqtt-message/);

    const e4 = await loadError([fixtureFile('no-text.json', [{ ...shipped[0], _id: undefined, payload: { ...shipped[0]!.payload, text: undefined } }])], validator);
    expect(e4.message).toMatch(/record 0 \(no _id\): field \/payload\/text is required/);
  });

  it('completes records given without _id or timestamp, as the control API does', async () => {
    const { _id, timestamp, ...bare } = shipped[0]!;
    const file = fixtureFile('bare.json', [bare, { ...bare, timestamp: 1_700_000_000_000 }]);
    const ids = ['5867948233835d9661c5aaa1', '5867948233835d9661c5aaa2'];
    const records = await loadEventFixtures([file], validator, { completion: { now: () => 1_800_000_000_000, nextId: () => ids.shift()! } });
    expect(records).toEqual([
      { ...bare, _id: '5867948233835d9661c5aaa1', timestamp: 1_800_000_000_000 },
      { ...bare, _id: '5867948233835d9661c5aaa2', timestamp: 1_700_000_000_000 },
    ]);
    for (const record of records) expect(validator.validateNamed('EventLogRecord', record)).toEqual([]);
    // Without a completion: a new ObjectId and the current time.
    const [made] = await loadEventFixtures([fixtureFile('bare-one.json', [bare])], validator);
    expect(made!._id).toMatch(/^[0-9a-f]{24}$/);
    expect(Math.abs(made!.timestamp - Date.now())).toBeLessThan(60_000);
  });

  it('reports every problem of every file in one run, each with the file, the record index and the field', async () => {
    const bad = structuredClone(shipped.slice(0, 3)) as Record<string, any>[];
    bad[0]!.payload.trapOid = 'linkDown';
    bad[0]!.agentId = 7;
    delete bad[2]!._id;
    bad[2]!.entity = { entityId: 'e1' };
    const first = fixtureFile('many-1.json', bad);
    const notJson = fixtureFile('many-2.json', '[{');
    const again = fixtureFile('many-3.json', [shipped[1]]);
    const e = await loadError([first, notJson, again], validator);
    for (const where of [`${first}, record 0 (_id "${shipped[0]?._id}"): field /payload/trapOid`, `${first}, record 0 (_id "${shipped[0]?._id}"): field /agentId`, `${first}, record 2 (no _id): field /entity/entityName`, `${notJson} cannot be read as JSON`]) {
      expect(e.message).toContain(`Fixture file ${where}`);
    }
    expect(e.message.split('\n')[0]).toBe(`${e.message.split('\n').length - 1} problems in the fixture files:`);
    expect(e.message).toContain(`Fixture file ${first}, record 2 (no _id): field /entity/entityType is required`);
    expect(e.message).toContain(`Fixture file ${again}, record 0 (_id "${shipped[1]?._id}"): _id "${shipped[1]?._id}" is already used by ${first} record 1.`);

    // A file of 100,000 bad records: every one counted, the message kept short.
    const huge = fixtureFile('huge.json', Array.from({ length: 100_000 }, () => ({ type: 'syslog' })));
    const big = await loadError([huge], validator);
    expect(big.message.split('\n')[0]).toBe('100000 problems in the fixture files:');
    expect(big.message.split('\n').length).toBeLessThan(210);
    expect(big.message).toContain('... and 99800 more');
  });

  it('refuses files that are not JSON arrays and _ids used twice', async () => {
    const notJson = fixtureFile('broken.json', '[{');
    expect((await loadError([notJson], validator)).message).toMatch(new RegExp(`^Fixture file ${notJson} cannot be read as JSON`));
    const missing = join(dir, 'missing.json');
    expect((await loadError([missing], validator)).message).toMatch(/missing\.json cannot be read as JSON: ENOENT/);
    const object = fixtureFile('object.json', { records: [] });
    expect((await loadError([object], validator)).message).toBe(`Fixture file ${object} must hold a JSON array of event log records.`);
    const again = fixtureFile('again.json', [shipped[3]]);
    expect((await loadError([defaultEventFixturesPath, again], validator)).message).toBe(
      `Fixture file ${again}, record 0 (_id "${shipped[3]?._id}"): _id "${shipped[3]?._id}" is already used by ${defaultEventFixturesPath} record 3.`,
    );
  });
});
