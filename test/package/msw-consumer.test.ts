// The kit's MSW handlers as a frontend project uses them: the packed kit installed beside msw,
// Vitest and jsdom. Its tests log in with a session cookie, page the event log, PATCH a payload
// and see a fault set through the control API, all by fetch: once answered in-process (no port
// is ever listened on), once forwarded to a listening fake. The shipped example runs too.
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { installKit, runIn, sameVersionAsHere, type InstalledKit } from '../../tools/installed-kit.js';

let kit: InstalledKit;

// The kit admits msw 2 and 3; msw 3 needs Node 22.12 or later, so a Node that runs it installs it
// (CI runs this file on Node 20 and on Node 24: both majors are tried). msw 3 renamed the listen
// option for requests no handler takes.
const MSW_3 = Number(process.versions.node.split('.')[0]) >= 22;
const UNHANDLED = MSW_3 ? 'onUnhandledFrame' : 'onUnhandledRequest';

beforeAll(async () => {
  const msw = MSW_3 ? 'msw@3' : await sameVersionAsHere('msw');
  kit = await installKit([...(await Promise.all(['typescript', '@types/node', 'vitest', 'jsdom'].map(sameVersionAsHere))), msw]);
}, 600_000);
afterAll(async () => {
  await kit?.remove();
});

/** The consumer's tests run in jsdom (spelt apart so that Vitest does not read it as this file's own environment). */
const JSDOM = `// @vitest-${'environment'} jsdom`;

/** The app's tests, for either form of the handlers. */
const appSuite = `import { setupServer } from 'msw/node';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { EventLogRecord, Fake } from 'monitoring-api-kit';
import type { FakeHandlers } from 'monitoring-api-kit/msw';

export function appSuite(start: () => Promise<{ fake: Fake; handlers: FakeHandlers; baseUrl: string }>): void {
  let fake: Fake;
  let handlers: FakeHandlers;
  let api = '';
  let server: ReturnType<typeof setupServer>;
  beforeAll(async () => {
    let baseUrl: string;
    ({ fake, handlers, baseUrl } = await start());
    api = baseUrl + '/node/api';
    server = setupServer(...handlers);
    server.listen({ ${UNHANDLED}: 'error' });
  });
  beforeEach(async () => {
    await fake.reset();
    handlers.clearCookies();
  });
  afterAll(async () => {
    server.close();
    await fake.close();
  });

  const json = { 'content-type': 'application/json' };
  const logIn = (login: string) =>
    fetch(api + '/users/session', { method: 'POST', headers: json, body: JSON.stringify({ login, password: fake.users[login]!.password }), credentials: 'include' });
  const page = async (skip: number) => {
    const response = await fetch(api + '/event-log?sortDirection=desc&limit=5&skip=' + skip, { credentials: 'include' });
    return { status: response.status, body: await response.json() };
  };

  it('logs in with a session cookie and pages the event log', async () => {
    expect((await logIn('viewer')).status).toBe(200);
    const [first, second] = [await page(0), await page(5)];
    expect([first.status, second.status]).toEqual([200, 200]);
    const ids = [...first.body, ...second.body].map((r: EventLogRecord) => r._id);
    expect(new Set(ids).size).toBe(10);
    handlers.clearCookies();
    expect((await page(0)).status).toBe(401);
  });

  it('PATCHes a payload and reads it back', async () => {
    await logIn('operator');
    const trap = (await page(0)).body.find((r: EventLogRecord) => r.type === 'snmp-trap') as EventLogRecord;
    const patched = await fetch(api + '/event-log/' + trap._id + '/payload', { method: 'PATCH', headers: json, body: JSON.stringify({ text: 'acknowledged' }), credentials: 'include' });
    expect(patched.status).toBe(204);
    expect((await page(0)).body.find((r: EventLogRecord) => r._id === trap._id).payload.text).toBe('acknowledged');
  });

  it('sees a fault set through the control API', async () => {
    const control = api.replace(/\\/node\\/api$/, '/__control');
    const set = await fetch(control + '/faults', { method: 'POST', headers: json, body: JSON.stringify({ operationId: 'getEventLog', status: 503, count: 1 }) });
    expect(set.status).toBe(201);
    await logIn('viewer');
    const faulted = await page(0);
    expect(faulted.status).toBe(503);
    expect(faulted.body.code).toBe('INJECTED_FAULT');
    expect((await page(0)).status).toBe(200);
  });
}
`;

const inProcessTest = `${JSDOM}
import { Server } from 'node:net';
import { afterAll, expect, vi } from 'vitest';
import { createFake } from 'monitoring-api-kit';
import { handlersFor } from 'monitoring-api-kit/msw';
import { appSuite } from './app-suite.js';

// Nothing listens: every answer comes through fake.inject.
const listen = vi.spyOn(Server.prototype, 'listen');
afterAll(() => expect(listen).not.toHaveBeenCalled());

appSuite(async () => {
  const fake = await createFake({ seed: 3, records: 60 });
  return { fake, handlers: handlersFor(fake, { baseUrl: location.origin }), baseUrl: location.origin };
});
`;

const forwardingTest = `${JSDOM}
import { createFake } from 'monitoring-api-kit';
import { handlersFor } from 'monitoring-api-kit/msw';
import { appSuite } from './app-suite.js';

appSuite(async () => {
  const fake = await createFake({ seed: 3, records: 60 });
  const { origin } = await fake.listen();
  const baseUrl = 'http://api.example.test';
  return { fake, handlers: handlersFor({ forwardTo: origin, baseUrl }), baseUrl };
});
`;

describe('monitoring-api-kit/msw in a frontend project (packed kit, msw, Vitest, jsdom)', () => {
  it('type-checks the tests against the subpath export (NodeNext)', async () => {
    await writeFile(join(kit.project, 'app-suite.ts'), appSuite);
    await writeFile(join(kit.project, 'in-process.test.ts'), inProcessTest);
    await writeFile(join(kit.project, 'forwarding.test.ts'), forwardingTest);
    for (const example of await readdir(join(kit.packageDir, 'examples/msw'))) {
      const text = await readFile(join(kit.packageDir, 'examples/msw', example), 'utf8');
      await writeFile(join(kit.project, `example-${example}`), text.replaceAll('onUnhandledRequest', UNHANDLED));
    }
    const config = { compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', strict: true, noEmit: true, lib: ['ES2022', 'DOM'], types: ['node'] }, include: ['*.ts'] };
    await writeFile(join(kit.project, 'tsconfig.json'), JSON.stringify(config, null, 2));
    expect(await runIn(kit.project, process.execPath, [join(kit.project, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'])).toBe('');
  }, 240_000);

  it('runs them in-process and forwarded, and the shipped example', async () => {
    const output = await runIn(kit.project, process.execPath, [join(kit.project, 'node_modules/vitest/vitest.mjs'), 'run', '--reporter', 'verbose', '--no-file-parallelism']);
    expect(output).toMatch(/in-process\.test\.ts/);
    expect(output).toMatch(/forwarding\.test\.ts/);
    expect(output).toMatch(/example-event-log\.test\.ts/);
    expect(output).toMatch(/Tests +10 passed/);
  }, 300_000);
});
