import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runBin } from '../helpers/run-bin.js';

const fixtures = (name: string) => fileURLToPath(new URL(`../../fixtures/${name}`, import.meta.url));

describe('serve with fixture files that have problems', () => {
  it('reports every problem of the users file and of every records file in one run, each with its index and field', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fixture-problems-'));
    const [trap, , , mqtt] = JSON.parse(await readFile(fixtures('events.json'), 'utf8')) as Record<string, any>[];
    const events = join(dir, 'events.json');
    await writeFile(events, JSON.stringify([
      { ...trap, _id: undefined, timestamp: undefined }, // completed: fine
      { ...trap, _id: 'x' },
      { ...mqtt, _id: undefined, payload: { ...mqtt!.payload, qos: 9 }, entity: {} },
    ]));
    const others = join(dir, 'more.json');
    await writeFile(others, '{"not": "an array"}');
    const users = join(dir, 'users.json');
    await writeFile(users, JSON.stringify([
      { login: 'ana', password: 'p', permissions: [] }, // an id is derived from the login
      { id: 'nope', login: 'bo', permissions: 'all' },
      { login: 'ana', password: 'q', permissions: [] },
    ]));
    const { code, stdout, stderr } = await runBin(['serve', '--port', '0', '--log-level', 'silent', '--users', users, '--fixture', `${events},${others}`]);
    expect(code).toBe(1);
    expect(stdout).not.toContain('listening');
    for (const line of [
      'user 1 ("bo"): field "password" must be a string',
      'user 1 ("bo"): field "id" must match pattern "^[0-9a-f]{24}$"',
      'user 1 ("bo"): field "permissions" must be array',
      'user 2 ("ana"): field "id" repeats another user\'s id',
      'user 2 ("ana"): field "login" repeats another user\'s login',
      `Fixture file ${events}, record 1 (_id "x"): field /_id must match pattern "^[0-9a-f]{24}$"`,
      `Fixture file ${events}, record 2 (no _id): field /payload/qos must be one of 0, 1, 2`,
      `Fixture file ${events}, record 2 (no _id): field /entity/entityId is required`,
      `Fixture file ${others} must hold a JSON array of event log records.`,
    ]) expect(stderr).toContain(line);
    expect(stderr).not.toMatch(/record 0/);
    // One line, the problems after their heading.
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/invalid users file \(5 problems\): user 1 /);
    expect(stderr).toMatch(/; 6 problems in the fixture files: Fixture file /);
  });

  it('serves records and users given without ids, completed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'fixture-bare-'));
    const [trap] = JSON.parse(await readFile(fixtures('events.json'), 'utf8')) as Record<string, any>[];
    const events = join(dir, 'events.json');
    await writeFile(events, JSON.stringify([{ ...trap, _id: undefined, timestamp: undefined, payload: { ...trap!.payload, text: 'bare record' } }]));
    const users = join(dir, 'users.json');
    await writeFile(users, JSON.stringify([{ login: 'ana', password: 'ana-pw', permissions: ['manage-event-log'] }]));
    const { createFake } = await import('../../src/fake/create-fake.js');
    const { expectConforms } = await import('../server/helpers.js');
    const fake = await createFake({ records: 0, docs: false, users, eventFixtures: [events] });
    try {
      const auth = { authorization: `Basic ${Buffer.from('ana:ana-pw').toString('base64')}` };
      const me = await fake.inject({ url: '/node/api/users/current', headers: auth });
      expectConforms('getCurrentUser', me);
      expect(JSON.parse(me.body)).toMatchObject({ login: 'ana', id: expect.stringMatching(/^[0-9a-f]{24}$/) });
      const log = await fake.inject({ url: '/node/api/event-log', headers: auth });
      expectConforms('getEventLog', log);
      expect(JSON.parse(log.body)).toEqual([expect.objectContaining({ payload: expect.objectContaining({ text: 'bare record' }), _id: expect.stringMatching(/^[0-9a-f]{24}$/) })]);
    } finally {
      await fake.close();
    }
  });
});
