import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildFake, type FakeApp } from '../../src/server/build.js';
import { control } from './control/helpers.js';
import { API, USERS, basic, basicOf, expectConforms, spec } from './helpers.js';

type Block = { login?: string; user?: string; ip?: string; uri?: string };
const apps: FakeApp[] = [];
afterAll(() => Promise.all(apps.map((app) => app.close())));

async function blocksOf(options: Parameters<typeof buildFake>[0], authorization = basicOf('admin').authorization): Promise<Block[]> {
  const app = await buildFake({ spec, docs: false, records: 0, ...options });
  apps.push(app);
  const response = await app.inject({ url: `${API}/limit-block-log`, headers: { authorization } });
  expectConforms('getLimitBlockLog', response);
  expect(response.statusCode).toBe(200);
  return JSON.parse(response.body) as Block[];
}

describe('the seeded block log', () => {
  it('names only users of the users fixture, each with its own id, the same for the same seed', async () => {
    const blocks = await blocksOf({});
    const byId = new Map<string, string>(Object.values(USERS).map((u) => [u.id, u.login]));
    const named = blocks.filter((b) => b.user !== undefined || b.login !== undefined);
    expect(named.length).toBeGreaterThan(5);
    for (const block of named) expect(byId.get(block.user as string), JSON.stringify(block)).toBe(block.login);
    expect(new Set(named.map((b) => b.login)).size).toBeGreaterThan(1);
    expect(await blocksOf({})).toEqual(blocks);
    expect(await blocksOf({ seed: 9 })).not.toEqual(blocks);
  });

  it('names the users of another users file, and none when the file has none', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'block-users-'));
    const users = join(dir, 'users.json');
    writeFileSync(users, JSON.stringify([{ login: 'root', password: 'root-password', permissions: ['manage-users'] }, { login: 'noc', password: 'noc-password', permissions: [] }]));
    const app = await buildFake({ spec, docs: false, records: 0, users });
    apps.push(app);
    const ids = new Map(app.fake.seededUsers.map((u) => [u.id, u.login]));
    const named = (await blocksOf({ users }, basic('root', 'root-password'))).filter((b) => b.user !== undefined || b.login !== undefined);
    expect(named.length).toBeGreaterThan(5);
    for (const block of named) expect(ids.get(block.user as string), JSON.stringify(block)).toBe(block.login);

    const nobody = join(dir, 'nobody.json');
    writeFileSync(nobody, '[]');
    const empty = await buildFake({ spec, docs: false, records: 0, users: nobody });
    apps.push(empty);
    const { body } = await control<{ blockLog: Block[] }>(empty, 'exportSnapshot');
    const blocks = body.blockLog;
    expect(blocks.length).toBeGreaterThan(0);
    expect(blocks.filter((b) => b.user !== undefined || b.login !== undefined)).toEqual([]);
  });
});
