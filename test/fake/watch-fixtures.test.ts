import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rename, symlink, truncate, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createFake, type Fake } from '../../src/fake/create-fake.js';
import { FIXTURE_FILE_MAX_BYTES } from '../../src/seed/fixtures.js';
import type { EventLogRecord } from '../../src/spec/types.js';
import { API, cookieValue, expectConforms, spec } from '../server/helpers.js';

let fake: Fake | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const [trap] = JSON.parse(await readFile(fileURLToPath(new URL('../../fixtures/events.json', import.meta.url)), 'utf8')) as Record<string, any>[];
const record = (text: string, _id?: string) => ({ ...trap, _id, timestamp: undefined, payload: { ...trap!.payload, text } });
const basic = (login: string, password: string) => ({ authorization: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}` });

/** Waits until `done` holds (checked every 20 ms), at most 5 s. */
async function until(done: () => boolean | Promise<boolean>): Promise<void> {
  for (let i = 0; i < 250; i++) {
    if (await done()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('timed out waiting for a reload');
}

/** Watched files in a folder of their own, and a fake watching them; `reloads` gets each outcome. */
async function watched() {
  const dir = await mkdtemp(join(tmpdir(), 'watch-'));
  const users = join(dir, 'users.json');
  const events = join(dir, 'events.json');
  await writeFile(users, JSON.stringify([{ login: 'ana', password: 'ana-pw', permissions: ['manage-event-log'] }]));
  await writeFile(events, JSON.stringify([record('first edition', '5867948233835d9661c5a001')]));
  const reloads: (Error | undefined)[] = [];
  fake = await createFake({ spec, docs: false, records: 5, users, eventFixtures: [events], watch: true, onFixturesReload: (error) => void reloads.push(error) });
  /** The error of a reload (from now on) whose message matches. */
  const failure = async (pattern: RegExp) => {
    const from = reloads.length;
    await until(() => reloads.slice(from).some((e) => e !== undefined && pattern.test(e.message)));
    return reloads.slice(from).find((e) => e !== undefined && pattern.test(e.message)) as Error;
  };
  return { users, events, reloads, failure };
}

async function texts(headers: Record<string, string>): Promise<string[]> {
  const response = await fake!.inject({ url: `${API}/event-log?limit=100`, headers });
  expectConforms('getEventLog', response);
  return (JSON.parse(response.body) as EventLogRecord[]).flatMap((r) => (r.type === 'snmp-trap' ? [r.payload.text] : []));
}

describe('watching the fixture files', () => {
  it('reloads edited users and records without a restart; sessions and records added since stay', async () => {
    const { users, events, reloads } = await watched();
    const ana = basic('ana', 'ana-pw');
    const login = await fake!.inject({ method: 'POST', url: `${API}/users/session`, payload: { login: 'ana', password: 'ana-pw' } });
    expectConforms('createSession', login);
    const sid = cookieValue(login, 'sid');
    const [added] = await fake!.addRecords([record('added at run time') as never]);
    expect(await texts(ana)).toEqual(expect.arrayContaining(['first edition', 'added at run time']));

    await writeFile(events, JSON.stringify([record('second edition'), record('another one')]));
    await writeFile(users, JSON.stringify([
      { login: 'ana', password: 'ana-pw', permissions: ['manage-event-log'] },
      { login: 'bo', password: 'bo-pw', permissions: [] },
    ]));
    // Both files may land in one reload or two.
    await until(async () => (await texts(ana)).includes('another one') && (await fake!.inject({ url: `${API}/users/current`, headers: basic('bo', 'bo-pw') })).statusCode === 200);
    expect(reloads.every((e) => e === undefined)).toBe(true);
    expect(Object.keys(fake!.users)).toEqual(['ana', 'bo']);
    const now = await texts(ana);
    expect(now).toEqual(expect.arrayContaining(['second edition', 'another one', 'added at run time']));
    expect(now).not.toContain('first edition');
    const me = await fake!.inject({ url: `${API}/users/current`, cookies: { sid } });
    expectConforms('getCurrentUser', me);
    expect(JSON.parse(me.body).login).toBe('ana');
    expect(fake!.app.fake.state.data.events.get(added!._id)).toEqual(added);
    // A reset goes back to the new seed: the new fixtures, not the first edition.
    await fake!.reset();
    expect(await texts(ana)).toEqual(expect.arrayContaining(['second edition', 'another one']));
    expect(await texts(ana)).not.toContain('added at run time');
  });

  it('keeps the old data when an edit has problems, reporting every one; a fix is then taken', async () => {
    const { users, events, failure } = await watched();
    const ana = basic('ana', 'ana-pw');
    const failed = failure(/record 0/);
    await writeFile(events, JSON.stringify([record('bad', 'x'), { ...record('worse'), entity: {} }]));
    const error = await failed;
    expect(error?.message).toContain(`${events}, record 0 (_id "x"): field /_id must match pattern`);
    expect(error?.message).toContain(`${events}, record 1 (no _id): field /entity/entityId is required`);
    expect(await texts(ana)).toContain('first edition');

    const unreadable = failure(/cannot read the users file/);
    await writeFile(users, '[{"login": "ana"');
    await unreadable;
    expect(await texts(ana)).toContain('first edition');
    expect((await fake!.inject({ url: `${API}/users/current`, headers: ana })).statusCode).toBe(200);

    // An editor's save by rename is seen too.
    await writeFile(join(users, '..', 'users.json.tmp'), JSON.stringify([{ login: 'ana', password: 'ana-pw', permissions: ['manage-event-log'] }]));
    await writeFile(events, JSON.stringify([record('fixed')]));
    await rename(join(users, '..', 'users.json.tmp'), users);
    await until(async () => (await texts(ana)).includes('fixed'));
  });

  it('refuses a record whose _id a generated record has, keeping the old data', async () => {
    const { events, failure } = await watched();
    const generated = fake!.app.fake.state.data.events.snapshot().find((r) => r._id !== '5867948233835d9661c5a001')!;
    const clash = failure(new RegExp(generated._id));
    await writeFile(events, JSON.stringify([record('clash', generated._id)]));
    await clash;
    expect(await texts(basic('ana', 'ana-pw'))).toContain('first edition');
  });

  it('refuses a FIFO, a link to /dev/zero and a file over the size cap in place of a fixture file, keeping the old data and answering', async () => {
    const { users, events, failure } = await watched();
    const ana = basic('ana', 'ana-pw');
    const replace = async (file: string, make: (path: string) => Promise<unknown>) => {
      const made = `${file}.new`;
      await make(made);
      await rename(made, file);
    };
    const fifo = failure(/a FIFO, not a regular file/);
    await replace(events, async (path) => execFileSync('mkfifo', [path]));
    await fifo;
    expect(await texts(ana)).toContain('first edition');

    const zero = failure(/a device, not a regular file/);
    await replace(users, (path) => symlink('/dev/zero', path));
    await zero;
    expect((await fake!.inject({ url: `${API}/users/current`, headers: ana })).statusCode).toBe(200);

    const huge = failure(new RegExp(`${FIXTURE_FILE_MAX_BYTES + 1} bytes`));
    await replace(events, async (path) => {
      await writeFile(path, '');
      await truncate(path, FIXTURE_FILE_MAX_BYTES + 1); // sparse: no disk used
    });
    await huge;
    expect(await texts(ana)).toContain('first edition');
  });
});
