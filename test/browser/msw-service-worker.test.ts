// A page in headless Chromium starts MSW's service worker with `handlersFor({ forwardTo, baseUrl })`
// (bundled by esbuild for the browser, as a frontend build would) and calls the API on its own
// origin: the worker forwards each call to a fake listening on another port.
// Runs alone with `npx vitest run test/browser`.
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import type { Server } from 'node:http';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFake, type Fake } from '../../src/index.js';
import { spec } from '../server/helpers.js';
import { chromiumPresent as present, launchWithProfile } from './chromium.js';
import { serveFolder } from './static-server.js';

const PAGE = `<!doctype html><meta charset="utf-8"><title>msw</title><script type="module" src="/app.js"></script>`;

// What an app's entry does: start the worker with the kit's handlers, then call the API on its own origin.
const APP = `
import { setupWorker } from 'msw/browser';
import { handlersFor } from ${JSON.stringify(fileURLToPath(new URL('../../src/msw/index.ts', import.meta.url)))};
const forwardTo = new URLSearchParams(location.search).get('api');
const worker = setupWorker(...handlersFor({ forwardTo, baseUrl: location.origin }));
worker.start({ quiet: true, onUnhandledRequest: 'bypass' }).then(() => { window.started = true; });
`;

/** A call the page makes, as the app would: status, body and the cookies the page can read. */
interface PageCall {
  readonly status: number;
  readonly body: unknown;
  readonly documentCookie: string;
}

describe.skipIf(!present)('MSW handlers in a browser service worker, forwarding to a running fake', () => {
  let fake: Fake;
  let site: { origin: string; server: Server };
  let folder = '';
  let browser: Awaited<ReturnType<typeof launchWithProfile>>;
  let page: Page;

  const call = (path: string, init: RequestInit = {}): Promise<PageCall> =>
    page.evaluate(
      async ({ path, init }) => {
        const response = await fetch(path, init);
        const text = await response.text();
        return { status: response.status, body: text === '' ? undefined : (JSON.parse(text) as unknown), documentCookie: document.cookie };
      },
      { path, init: init as Record<string, unknown> },
    );

  beforeAll(async () => {
    // CSRF is required, so a write must send the csrf cookie back: the strictest setting a UI meets.
    fake = await createFake({ spec, records: 20, requireCsrf: true });
    const api = (await fake.listen()).origin;
    folder = await mkdtemp(join(tmpdir(), 'msw-page-'));
    await writeFile(join(folder, 'index.html'), PAGE);
    const root = fileURLToPath(new URL('../../', import.meta.url));
    await build({ stdin: { contents: APP, resolveDir: root }, bundle: true, format: 'esm', platform: 'browser', outfile: join(folder, 'app.js'), logLevel: 'silent' });
    await copyFile(createRequire(import.meta.url).resolve('msw/mockServiceWorker.js'), join(folder, 'mockServiceWorker.js'));
    // The page and the fake share the host name 127.0.0.1, so the session cookie reaches both ports.
    site = await serveFolder(folder);
    browser = await launchWithProfile();
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    page.setDefaultTimeout(10_000);
    await page.goto(`${site.origin}/?api=${encodeURIComponent(api)}`);
    await page.waitForFunction(() => (window as { started?: boolean }).started === true);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    if (site) await new Promise((resolve) => site.server.close(resolve));
    await fake?.close();
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it('answers a call on the page origin from the fake (Basic)', async () => {
    const before = (await fake.requests()).length;
    const answer = await call('/node/api/users/current', { headers: { authorization: `Basic ${btoa('viewer:viewer-password')}` } });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ login: 'viewer' });
    const journal = await fake.requests();
    expect(journal.length).toBe(before + 1);
    expect(journal.at(-1)).toMatchObject({ method: 'GET', status: 200 });
  });

  it('logs in with a session cookie the page cannot read, sends it on later calls, and writes with the csrf token', async () => {
    const login = await call('/node/api/users/session', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ login: 'operator', password: fake.users.operator!.password }),
    });
    expect(login.status).toBe(200);
    expect(login.documentCookie).not.toContain('sid=');
    expect(login.documentCookie).toContain('csrf=');
    const current = await call('/node/api/users/current');
    expect(current).toMatchObject({ status: 200, body: { login: 'operator' } });
    expect((await fake.sessions()).map((s) => s.login)).toEqual(['operator']);

    const trap = (await call('/node/api/event-log?type=1&limit=1')).body as { _id: string }[];
    const csrf = /(?:^|; )csrf=([^;]*)/.exec(login.documentCookie)?.[1] ?? '';
    const edit = { method: 'PATCH', headers: { 'content-type': 'application/json', 'x-csrf-token': csrf }, body: JSON.stringify({ text: 'edited in a worker' }) };
    expect((await call(`/node/api/event-log/${trap[0]!._id}/payload`, edit)).status).toBe(204);
    expect((await call('/node/api/event-log?type=1&limit=1')).body).toMatchObject([{ _id: trap[0]!._id, payload: { text: 'edited in a worker' } }]);
  });

  it("gives the fake's own 404 for a path under the API it has no route for", async () => {
    const answer = await call('/node/api/no-such-route');
    expect(answer.status).toBe(404);
    expect(answer.body).toMatchObject({ code: 'ROUTE_NOT_FOUND' });
  });
});
