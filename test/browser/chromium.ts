import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/** Debian's chromium package, which the browser tests drive through playwright-core. */
export const CHROMIUM = '/usr/bin/chromium';
export const ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];
/** Whether the browser tests can run here; on CI they must. */
export const chromiumPresent = existsSync(CHROMIUM);
if (!chromiumPresent && process.env.CI === 'true') {
  throw new Error(`${CHROMIUM} is missing: CI needs Debian's chromium package (apt-get install -y --no-install-recommends chromium).`);
}

/** A browser with a profile of its own (cookies and all), removed again by `close`. */
export async function launchWithProfile(options: { viewport?: { width: number; height: number } } = {}): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'chromium-profile-'));
  const context = await chromium.launchPersistentContext(userDataDir, { executablePath: CHROMIUM, headless: true, args: ARGS, ...options });
  return {
    context,
    async close() {
      await context.close();
      await rm(userDataDir, { recursive: true, force: true });
    },
  };
}
