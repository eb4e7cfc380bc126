// The HTML report of `check --reporter html` in a real browser (Debian's headless Chromium,
// driven by playwright-core): one file that asks for nothing outside itself, shows the verdict,
// the checks and the coverage in colour, and folds each cause of findings until it is opened.
import { mkdtempSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCheck } from '../../src/cli/check.js';
import { startBreakingProxy, type RunningProxy } from '../contract/broken/breaking-proxy.js';
import { ADMIN, listeningFake, VIEWER, type ListeningFake } from '../contract/helpers/fake.js';
import { ARGS, CHROMIUM, chromiumPresent as present } from './chromium.js';


describe.skipIf(!present)('the HTML report in headless Chromium', () => {
  let fake: ListeningFake;
  let proxy: RunningProxy;
  let browser: Browser;
  let page: Page;
  let dir = '';
  let file = '';
  let exitCode = -1;
  const requested: string[] = [];

  beforeAll(async () => {
    fake = await listeningFake();
    // Timestamps as strings (violations) and a text/plain token (notes).
    proxy = await startBreakingProxy(fake.url, {
      response: (r, res) => {
        if (r.url.pathname === '/node/api/event-log' && res.status === 200) {
          return { ...res, body: JSON.stringify((JSON.parse(res.body) as { timestamp: number }[]).map((x) => ({ ...x, timestamp: String(x.timestamp) }))) };
        }
        if (r.method === 'POST' && r.url.pathname.endsWith('/auth-token') && res.status === 200) return { ...res, headers: { 'content-type': 'text/plain' }, body: JSON.parse(res.body) as string };
        return res;
      },
    });
    dir = mkdtempSync(join(tmpdir(), 'html-report-'));
    file = join(dir, 'report.html');
    exitCode = await runCheck(
      { reporter: 'html', output: file, quiet: true, baseUrl: proxy.url, login: ADMIN.login, password: ADMIN.password, lowLogin: VIEWER.login, lowPassword: VIEWER.password, seed: 11, only: ['event-log', 'cases'] },
      { stdout: () => undefined, stderr: () => undefined },
    );
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(10_000);
    page.on('request', (request) => void requested.push(request.url()));
    await page.goto(pathToFileURL(file).href);
  });
  afterAll(async () => {
    await browser?.close();
    await proxy?.close();
    await fake?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('is one file that asks for nothing else, and holds no secret', () => {
    expect(exitCode).toBe(1);
    expect(requested).toEqual([pathToFileURL(file).href]);
    const html = readFileSync(file, 'utf8');
    expect(html).not.toMatch(/<(script|link|img|iframe)\b/i);
    expect(html).toContain(`default-src 'none'`);
    expect(html).not.toContain(ADMIN.password);
    expect(html).not.toContain(Buffer.from(`${ADMIN.login}:${ADMIN.password}`).toString('base64'));
  });

  it('shows the verdict, the checks in colour and the coverage matrix', async () => {
    expect(await page.title()).toMatch(/^FAILED: contract check of http:\/\/127\.0\.0\.1:\d+$/);
    expect(await page.locator('#verdict').textContent()).toBe('FAILED');
    const cell = (op: string, check: string) =>
      page.evaluate(
        ([operation, name]) => {
          const table = document.querySelector('#checks');
          const column = [...(table?.querySelectorAll('thead th') ?? [])].findIndex((th) => th.textContent === name);
          const row = [...(table?.querySelectorAll('tbody tr') ?? [])].find((tr) => tr.querySelector('th')?.textContent === operation);
          const td = row?.children[column];
          return td ? { cls: td.className, text: td.textContent, colour: getComputedStyle(td).backgroundColor } : undefined;
        },
        [op, check],
      );
    expect(await cell('getEventLog', 'response-schema')).toMatchObject({ cls: 'cell failed', text: expect.stringMatching(/^FAIL/), colour: 'rgb(255, 235, 233)' });
    expect(await cell('getEventLog', 'not-server-error')).toMatchObject({ cls: 'cell passed', colour: 'rgb(218, 251, 225)' });
    // Timestamps as strings leave no closed world to judge the order by: not judged, not ok.
    expect(await cell('getEventLog', 'sort-order')).toMatchObject({ cls: 'cell inconclusive' });
    expect(await cell('createAuthToken', 'content-type')).toMatchObject({ cls: 'cell noted' });
    expect(await cell('createAuthToken', 'case/token-flow')).toMatchObject({ cls: 'cell passed' });
    expect(await page.locator('#coverage tbody tr').count()).toBe(8);
    expect(await page.locator('#coverage tbody tr', { hasText: 'getEventLog' }).locator('td.seen').count()).toBeGreaterThanOrEqual(2);
    const shot = await page.screenshot({ fullPage: true });
    expect(shot.length).toBeGreaterThan(20_000);
  });

  it('folds each cause of findings until it is opened, with its count, the first curl command, citation and answer', async () => {
    const first = page.locator('#findings > details').first();
    expect(await page.locator('#findings > details').count()).toBeGreaterThan(1);
    expect(await first.locator('summary').first().textContent()).toMatch(/^VIOLATIONresponse-schema: The body matches the documented schema \(\d+ violations on 1 operation\)$/);
    expect(await first.locator('dd', { hasText: '/[n]/timestamp must be integer' }).count()).toBe(1);
    const curl = first.locator('pre').first();
    expect(await curl.isVisible()).toBe(false);
    await first.locator('summary').first().click();
    expect(await curl.isVisible()).toBe(true);
    expect(await curl.textContent()).toMatch(/^curl -sS -i 'http:\/\/127\.0\.0\.1:\d+\/node\/api\/event-log\b/);
    expect(await first.locator('dd', { hasText: 'spec 2: timestamp is an integer' }).count()).toBe(1);
    expect(await first.locator('pre').nth(1).textContent()).toMatch(/^200 \[\{"_id"/);
    const every = first.locator('details.every');
    await every.locator('summary').click();
    expect(await every.locator('tbody tr').count()).toBeGreaterThan(1);
    expect(requested).toHaveLength(1);
  });
});
