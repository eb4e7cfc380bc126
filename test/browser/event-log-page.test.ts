// A real browser (Debian's headless Chromium, driven by playwright-core) loads a page from
// one port that logs in to the fake on another port, pages the event log and edits a trap.
// Runs alone with `npx vitest run test/browser`.
import { mkdtemp, rm } from 'node:fs/promises';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFake, type Fake } from '../../src/index.js';
import type { SnmpTrapRecord } from '../../src/spec/types.js';
import { basicOf, spec } from '../server/helpers.js';
import { ARGS, CHROMIUM, chromiumPresent as present } from './chromium.js';
import { serveFolder } from './static-server.js';


describe.skipIf(!present)('a page on another port, in headless Chromium', () => {
  let fake: Fake;
  let api = '';
  let site: { origin: string; server: Server };
  let userDataDir = '';
  let context: BrowserContext;
  let page: Page;

  /** The traps as the page should list them: newest first, five a page. */
  async function trapsPage(index: number): Promise<SnmpTrapRecord[]> {
    const response = await fake.inject({ url: `/node/api/event-log?type=1&sortDirection=desc&limit=5&skip=${index * 5}`, headers: basicOf('admin') });
    return JSON.parse(response.body) as SnmpTrapRecord[];
  }
  const shownIds = () => page.locator('#rows tr').evaluateAll((rows) => rows.map((r) => (r as HTMLElement).dataset.id));

  beforeAll(async () => {
    // CSRF is required, so the page must send the csrf cookie back: the strictest setting a UI meets.
    fake = await createFake({ spec, records: 60, requireCsrf: true });
    api = (await fake.listen()).origin;
    site = await serveFolder(fileURLToPath(new URL('./fixture/', import.meta.url)));
    userDataDir = await mkdtemp(join(tmpdir(), 'chromium-profile-'));
    context = await chromium.launchPersistentContext(userDataDir, { executablePath: CHROMIUM, headless: true, args: ARGS });
    page = context.pages()[0] ?? (await context.newPage());
    page.setDefaultTimeout(10_000);
  });
  afterAll(async () => {
    await context?.close();
    await new Promise((resolve) => site?.server.close(resolve));
    await fake?.close();
    if (userDataDir) await rm(userDataDir, { recursive: true, force: true });
  });

  it('logs in with a session cookie across ports', async () => {
    await page.goto(`${site.origin}/?api=${encodeURIComponent(api)}`);
    await page.fill('[name=login]', 'operator');
    await page.fill('[name=password]', fake.users.operator!.password);
    await page.click('#login button');
    await expect.poll(() => page.textContent('#user')).toBe('Logged in as operator');
    expect(await page.textContent('#error')).toBe('');
    const sessions = await fake.sessions();
    expect(sessions.map((s) => s.login)).toEqual(['operator']);
  });

  it('lists the newest traps and pages through them', async () => {
    const first = await trapsPage(0);
    await expect.poll(shownIds).toEqual(first.map((r) => r._id));
    const cells = await page.locator('#rows tr').first().locator('td').allTextContents();
    expect(cells.slice(0, 3)).toEqual([new Date(first[0]!.timestamp).toISOString(), String(first[0]!.payload.senderAddress), first[0]!.payload.text]);
    expect(await page.isDisabled('#prev')).toBe(true);

    await page.click('#next');
    await expect.poll(() => page.textContent('#page')).toBe('Page 2');
    expect(await shownIds()).toEqual((await trapsPage(1)).map((r) => r._id));
    await page.click('#prev');
    await expect.poll(() => page.textContent('#page')).toBe('Page 1');
    expect(await shownIds()).toEqual(first.map((r) => r._id));
  });

  it("patches a trap's text and shows the change", async () => {
    const row = page.locator('#rows tr').nth(1);
    const id = await row.getAttribute('data-id');
    await row.locator('button', { hasText: 'Edit' }).click();
    await page.fill('#edit [name=text]', 'linkDown acknowledged by the night shift');
    await page.click('#edit button');
    await expect.poll(() => row.locator('td').nth(2).textContent()).toBe('linkDown acknowledged by the night shift');
    expect(await page.textContent('#error')).toBe('');
    const stored = (await fake.snapshot()).eventLog.find((r) => r._id === id);
    expect(stored?.payload).toMatchObject({ text: 'linkDown acknowledged by the night shift' });
  });

  it('serves the docs page from the fake alone, and "Try it out" calls the running fake', async () => {
    const docs = await context.newPage();
    docs.setDefaultTimeout(10_000);
    const requested: string[] = [];
    docs.on('request', (request) => void requested.push(request.url()));
    await docs.goto(`${api}/docs`);
    const operation = docs.locator('.opblock', { hasText: '/node/api/users/current' }).first();
    await operation.locator('.opblock-summary').click();
    // "Try it out" is on from the start (tryItOutEnabled): Execute is there at once.
    await operation.getByRole('button', { name: 'Execute' }).click();
    // The page shares the browser's cookies for 127.0.0.1, so the call runs in the operator's session.
    const status = operation.locator('.live-responses-table tbody .response-col_status').first();
    await status.waitFor();
    expect((await status.textContent())?.trim()).toBe('200');
    expect(await operation.locator('.live-responses-table .microlight').first().textContent()).toContain('"login": "operator"');
    expect(requested).toContain(`${api}/node/api/users/current`);
    // Offline: every script, style, document and call went to the fake itself.
    expect(requested.filter((url) => !url.startsWith(`${api}/`) && !url.startsWith('data:'))).toEqual([]);
    await docs.close();
  });

  it('docs page: "Try it out" fills in only `limit`, so Execute shows records; the seeded logins are listed', async () => {
    const docs = await context.newPage();
    docs.setDefaultTimeout(10_000);
    const calls: string[] = [];
    docs.on('request', (request) => {
      if (request.url().startsWith(`${api}/node/api/event-log`)) calls.push(request.url());
    });
    await docs.goto(`${api}/docs`);
    const logins = docs.locator('.information-container table');
    await expect.poll(() => logins.textContent()).toContain('admin-password');
    const operation = docs.locator('.opblock.opblock-get', { has: docs.locator('[data-path="/node/api/event-log"]') }).first();
    await operation.locator('.opblock-summary').click();
    // The filter's example is shown, not filled in.
    await expect.poll(() => operation.locator('.parameters').textContent()).toContain('Example: {"payload.trapOid"');
    await operation.getByRole('button', { name: 'Execute' }).click();
    const status = operation.locator('.live-responses-table tbody .response-col_status').first();
    await status.waitFor();
    expect((await status.textContent())?.trim()).toBe('200');
    expect(calls).toHaveLength(1);
    const sent = new URL(calls[0]!).searchParams;
    expect(sent.get('limit')).toBe('50');
    for (const name of ['filter', 'from', 'to', 'type']) expect(sent.has(name), name).toBe(false);
    expect(['0', null]).toContain(sent.get('skip'));
    expect(await operation.locator('.live-responses-table .microlight').first().textContent()).toContain('"_id"');
    await docs.close();
  });

  it('shows the error the fake answers when the session is gone', async () => {
    await fake.clearSessions();
    await page.click('#next');
    await expect.poll(() => page.textContent('#error')).toMatch(/^401 UNAUTHENTICATED/);
  });
});
