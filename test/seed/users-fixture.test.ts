import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkedByTheKitsTests, defaultEventFixturesPath, defaultUsersFixture, loadUsersFixture } from '../../src/seed/fixtures.js';
import { createSpecValidator, loadSpec } from '../../src/spec/index.js';

const validator = createSpecValidator(await loadSpec());

describe("the kit's own fixtures", () => {
  it('the shipped users are valid against the document (the fake trusts them at start)', async () => {
    const users = await loadUsersFixture(defaultUsersFixture, validator);
    expect(users.map((u) => u.login)).toEqual(['admin', 'operator', 'viewer']);
  });

  it('are trusted only with the kit\'s own document, and no other file is', () => {
    expect(checkedByTheKitsTests(defaultUsersFixture, true)).toBe(true);
    expect(checkedByTheKitsTests(defaultEventFixturesPath, true)).toBe(true);
    expect(checkedByTheKitsTests(defaultUsersFixture, false)).toBe(false);
    const dir = mkdtempSync(join(tmpdir(), 'fixtures-'));
    const users = join(dir, 'users.json');
    expect(checkedByTheKitsTests(users, true)).toBe(false);
    expect(checkedByTheKitsTests(join(defaultUsersFixture, '..', '..', 'fixtures-other', 'users.json'), true)).toBe(false);
  });

  it('a users file of the user is checked against the document', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'fixtures-'));
    const file = join(dir, 'users.json');
    writeFileSync(file, JSON.stringify([{ id: 'not-an-object-id', login: 'x', password: 'p', permissions: [] }]));
    await expect(loadUsersFixture(file, validator)).rejects.toThrow(/field "id"/);
  });
});
