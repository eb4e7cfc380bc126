// The request inspector in headless Chromium (Debian's, driven by playwright-core): a page on
// another port calls the fake with a session cookie and an API token; the inspector, open in
// another tab, lists those calls within a second, newest first, with their status, their
// caller, the token masked, and for a refused call what was wrong, at a glance.
// Runs alone with `npx vitest run test/browser`. INSPECTOR_SCREENSHOT=<file.png> also saves a
// picture of the inspector (docs/inspector.png, shown in docs/frontend.md).
import type { Server } from 'node:http';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFake, type Fake } from '../../src/index.js';
import { basicOf, spec, USERS } from '../server/helpers.js';
import { chromiumPresent, launchWithProfile } from './chromium.js';
import { serveFolder } from './static-server.js';


/** What the page of the other port does: fetch with the session cookie, or with a token in the query. */
async function pageCalls(page: Page, api: string, calls: readonly { path: string; init?: RequestInit }[]): Promise<number[]> {
  return page.evaluate(
    async ({ api, calls }) => {
      const statuses: number[] = [];
      for (const call of calls) statuses.push((await fetch(api + call.path, { credentials: 'include', ...call.init })).status);
      return statuses;
    },
    { api, calls: calls as { path: string; init?: RequestInit }[] },
  );
}

describe.skipIf(!chromiumPresent)('the request inspector, in headless Chromium', () => {
  let fake: Fake;
  let api = '';
  let site: { origin: string; server: Server };
  let browser: Awaited<ReturnType<typeof launchWithProfile>> | undefined;
  let app: Page;
  let inspector: Page;
  let token = '';
  const outside: string[] = [];

  const rowTexts = () => inspector.locator('#rows tr').evaluateAll((rows) => rows.map((r) => [...r.querySelectorAll('td')].map((td) => td.textContent ?? '')));

  beforeAll(async () => {
    fake = await createFake({ spec, records: 60 });
    api = (await fake.listen()).origin;
    site = await serveFolder(fileURLToPath(new URL('./fixture/', import.meta.url)));
    browser = await launchWithProfile({ viewport: { width: 1400, height: 800 } });
    const { context } = browser;
    app = context.pages()[0] ?? (await context.newPage());
    app.setDefaultTimeout(10_000);
    await app.goto(site.origin);
    inspector = await context.newPage();
    inspector.setDefaultTimeout(10_000);
    inspector.on('request', (request) => {
      if (!request.url().startsWith(`${api}/`)) outside.push(request.url());
    });
    await inspector.goto(`${api}/__inspector`);
    const issued = await fake.inject({ method: 'POST', url: `/node/api/users/${USERS.admin.id}/auth-token`, headers: basicOf('admin') });
    token = JSON.parse(issued.body) as string;
    await fake.clearRequests();
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => site?.server.close(resolve));
    await fake?.close();
  });

  it('lists the calls of a page on another port within a second, newest first, with status, caller and the token masked', async () => {
    const json = { 'content-type': 'application/json' };
    const statuses = await pageCalls(app, api, [
      { path: '/node/api/users/session', init: { method: 'POST', headers: json, body: JSON.stringify({ login: 'operator', password: USERS.operator.password }) } },
      { path: '/node/api/users/current' },
      { path: `/node/api/event-log?limit=5&api-token=${token}`, init: { credentials: 'omit' } },
      { path: '/node/api/event-log?limit=abc' },
    ]);
    expect(statuses).toEqual([200, 200, 200, 400]);
    // The inspector was open before: it shows the last call within a second, without a reload.
    await expect.poll(async () => (await rowTexts()).length, { timeout: 1000, interval: 50 }).toBe(4);
    const [refused, byToken, bySession, login] = await rowTexts();
    expect(login?.slice(1, 4)).toEqual(['POST', '/node/api/users/session', '200']);
    expect(bySession?.slice(1, 6)).toEqual(['GET', '/node/api/users/current', '200', expect.any(String), 'operator (session)']);
    expect(byToken?.slice(1, 6)).toEqual(['GET', '/node/api/event-log?limit=5&api-token=[redacted]', '200', expect.any(String), 'admin (token)']);
    expect(refused?.slice(1, 4)).toEqual(['GET', '/node/api/event-log?limit=abc', '400']);
    expect(refused?.[6]).toMatch(/^your page sent limit=abc: 400, limit must /);
    expect(await inspector.content()).not.toContain(token);
  });

  it('shows one request in full with its answer, and filters the list', async () => {
    await inspector.locator('#rows tr', { hasText: 'limit=abc' }).click();
    const detail = inspector.locator('#detail');
    await expect.poll(() => detail.locator('h2').textContent()).toBe('GET /node/api/event-log?limit=abc');
    const text = (await detail.textContent()) ?? '';
    expect(text).toContain('getEventLog');
    expect(text).toContain('operator (5867948233835d9661c56dca) by session');
    expect(text).toContain(`Origin${site.origin}`);
    const answer = JSON.parse((await detail.locator('pre').textContent()) ?? '') as { code: string; details: { name: string }[] };
    expect(answer).toMatchObject({ status: 400, code: 'INVALID_PARAMETER', details: [{ location: 'query', name: 'limit' }] });
    if (process.env.INSPECTOR_SCREENSHOT) await inspector.screenshot({ path: process.env.INSPECTOR_SCREENSHOT });

    await inspector.fill('#text', 'token');
    await expect.poll(async () => (await rowTexts()).map((r) => r[2])).toEqual(['/node/api/event-log?limit=5&api-token=[redacted]']);
    await inspector.fill('#text', '');
    await inspector.selectOption('#status', '4');
    await expect.poll(async () => (await rowTexts()).map((r) => r[3])).toEqual(['400']);
    await inspector.selectOption('#status', '');
  });

  it('shows markup sent by a caller as text: no element of it is made, no script of it runs', async () => {
    const markup = '<img src=x onerror="document.title=`pwned`"><script>document.title=`pwned`</script>';
    await pageCalls(app, api, [{ path: `/node/api/${encodeURIComponent(markup)}`, init: { credentials: 'omit' } }]);
    const row = inspector.locator('#rows tr', { hasText: '/node/api/%3Cimg' });
    await expect.poll(() => row.count()).toBe(1);
    await row.click();
    await expect.poll(() => inspector.locator('#detail h2').textContent()).toContain('%3Cimg');
    // The error message names the path decoded, markup and all: it shows as text.
    expect(await row.textContent()).toContain('<img src');
    expect(await inspector.locator('img, #rows script, #detail script').count()).toBe(0);
    expect(await inspector.title()).toBe('Requests · monitoring API fake');
  });

  it("shows a successful answer's body, pretty-printed, with the token in it masked", async () => {
    await pageCalls(app, api, [{ path: `/node/api/users/current?api-token=${token}`, init: { credentials: 'omit' } }]);
    const row = inspector.locator('#rows tr', { hasText: '/node/api/users/current?api-token' });
    await expect.poll(() => row.count()).toBe(1);
    await row.click();
    const body = inspector.locator('#detail pre');
    await expect.poll(() => body.count()).toBe(1);
    const text = (await body.textContent()) ?? '';
    expect(text).toContain('\n  "login": "admin",');
    expect(JSON.parse(text)).toMatchObject({ id: USERS.admin.id, login: 'admin', authenticationToken: '[redacted]' });
    expect(await inspector.content()).not.toContain(token);
  });

  it('empties with Clear, and asks nothing of any other server', async () => {
    await inspector.click('#clear');
    await expect.poll(async () => (await rowTexts()).length).toBe(0);
    expect(await fake.requests()).toEqual([]);
    expect(outside).toEqual([]);
  });
});
