// The kit as a frontend team adds it: `npm pack`, the tarball installed into an empty ESM
// project beside TypeScript and Vitest, on the Node that runs this (`npm run test:package`; CI
// runs it on Node 20 and 24). No engine warning; `npx monitoring-api-kit
// serve` runs the build (no tsx, no esbuild); createFake and the exported types work from
// TypeScript with moduleResolution NodeNext and Bundler; the shipped examples compile and run.
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFile, readdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import semver from 'semver';
import { createSpecValidator, loadSpec } from '../../src/spec/index.js';
import {
  childEnvironment,
  engineFloor,
  engineMismatches,
  installedPackages,
  installKit,
  runIn,
  sameVersionAsHere,
  type InstalledKit,
} from '../../tools/installed-kit.js';
import { descendants } from '../helpers/processes.js';

const validator = createSpecValidator(await loadSpec());
let kit: InstalledKit;

beforeAll(async () => {
  kit = await installKit(await Promise.all(['typescript', '@types/node', 'vitest', 'openapi-fetch'].map(sameVersionAsHere)));
}, 300_000);
afterAll(async () => {
  await kit?.remove();
});

/** A consumer's test: createFake in-process and on a port, the exported types, the control methods. */
const consumerTest = `import { expect, it } from 'vitest';
import { ControlApiError, createFake, createSpecValidator, loadSpec, type EventLogRecord, type Fake, type paths } from 'monitoring-api-kit';

type CurrentUser = paths['/node/api/users/current']['get']['responses'][200]['content']['application/json'];

it('serves the seeded data in-process and on a port', async () => {
  const validator = createSpecValidator(await loadSpec());
  const fake: Fake = await createFake({ seed: 3, records: 20 });
  try {
    const { login, password } = fake.users.viewer!;
    const authorization = 'Basic ' + Buffer.from(login + ':' + password).toString('base64');
    const answer = await fake.inject({ url: '/node/api/users/current', headers: { authorization } });
    expect(validator.checkResponse('getCurrentUser', { status: answer.statusCode, headers: answer.headers as Record<string, string>, body: answer.body })).toEqual([]);
    const user: CurrentUser = answer.json();
    expect(user.login).toBe('viewer');

    const { baseUrl } = await fake.listen();
    const response = await fetch(baseUrl + '/event-log?limit=5', { headers: { authorization } });
    const body = await response.text();
    expect(validator.checkResponse('getEventLog', { status: response.status, headers: Object.fromEntries(response.headers), body })).toEqual([]);
    const records: EventLogRecord[] = JSON.parse(body);
    expect(records).toHaveLength(5);
    await expect(fake.deleteFault('no-such-fault')).rejects.toBeInstanceOf(ControlApiError);
  } finally {
    await fake.close();
  }
});

/** Never called: the declarations are types, not \`any\`. */
export function typesAreChecked(): void {
  // @ts-expect-error the seed is a number
  void createFake({ seed: 'seven' });
}
`;

async function tsc(settings: { module: string; moduleResolution: string }): Promise<string> {
  const config = {
    compilerOptions: { target: 'ES2022', ...settings, strict: true, noEmit: true, skipLibCheck: false, types: ['node'] },
    include: ['*.ts'],
  };
  const file = `tsconfig.${settings.moduleResolution.toLowerCase()}.json`;
  await writeFile(join(kit.project, file), JSON.stringify(config, null, 2));
  return runIn(kit.project, process.execPath, [join(kit.project, 'node_modules/typescript/bin/tsc'), '-p', file]);
}

describe('the packed kit installed into an empty project', () => {
  it('installs with no engine warning and no overrides: every package admits this Node, and on the floor\'s major the floor', async () => {
    expect(kit.installOutput).not.toMatch(/EBADENGINE|Unsupported engine/);
    const packages = await installedPackages(kit.project);
    expect(packages.map((p) => p.name)).toContain('fastify');
    // npm picks each dependency's version for the Node it runs on: what Node 24 gets may need 22, what Node 20 gets admits 20.
    expect(engineMismatches(packages, process.versions.node)).toEqual([]); // CI runs this on Node 24 too
    const floor = await engineFloor();
    if (semver.major(floor) === semver.major(process.versions.node)) expect(engineMismatches(packages, floor)).toEqual([]);
    const manifest = JSON.parse(await readFile(join(kit.packageDir, 'package.json'), 'utf8')) as Record<string, unknown>;
    expect(manifest.overrides).toBeUndefined();
  });

  it('ships the build, the examples and the documents, not the TypeScript sources', async () => {
    expect(existsSync(join(kit.packageDir, 'dist/bin/cli.js'))).toBe(true);
    expect(existsSync(join(kit.packageDir, 'dist/documents/monitoring-api.yaml.json'))).toBe(true);
    expect(existsSync(join(kit.packageDir, 'dist/index.d.ts'))).toBe(true);
    expect(existsSync(join(kit.packageDir, 'openapi/monitoring-api.yaml'))).toBe(true);
    expect((await readdir(join(kit.packageDir, 'examples'))).sort()).toEqual(['msw', 'openapi-fetch-client.ts', 'vitest-example.ts']);
    expect(existsSync(join(kit.packageDir, 'src'))).toBe(false);
    expect((await installedPackages(kit.project)).map((p) => p.name)).not.toContain('tsx');
  });

  it('`npx monitoring-api-kit serve` answers /users/current from the build, with no tsx or esbuild process', async () => {
    const npx = spawn('npx', ['--no-install', 'monitoring-api-kit', 'serve', '--port', '0', '--log-level', 'warn'], {
      cwd: kit.project,
      env: childEnvironment(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const baseUrl = await bannerBaseUrl(npx);
      const response = await fetch(`${baseUrl}/users/current`, { headers: { authorization: `Basic ${Buffer.from('admin:admin-password').toString('base64')}` } });
      const body = await response.text();
      expect(validator.checkResponse('getCurrentUser', { status: response.status, headers: Object.fromEntries(response.headers), body })).toEqual([]);
      expect(response.status).toBe(200);
      const commands = descendants(npx.pid as number).map((p) => p.command);
      expect(commands.some((c) => c.includes(join(kit.project, 'node_modules/.bin/monitoring-api-kit')))).toBe(true);
      expect(commands.filter((c) => /tsx|esbuild/.test(c))).toEqual([]);
    } finally {
      await stopTree(npx);
    }
  }, 60_000);

  it('type-checks a TypeScript consumer and the shipped examples with moduleResolution NodeNext and Bundler', async () => {
    await writeFile(join(kit.project, 'consumer.test.ts'), consumerTest);
    for (const example of ['vitest-example.ts', 'openapi-fetch-client.ts']) {
      await copyFile(join(kit.packageDir, 'examples', example), join(kit.project, example.replace('vitest-example', 'event-log.test')));
    }
    const [nodeNext, bundler] = await Promise.all([tsc({ module: 'NodeNext', moduleResolution: 'NodeNext' }), tsc({ module: 'ESNext', moduleResolution: 'Bundler' })]);
    expect(nodeNext).toBe('');
    expect(bundler).toBe('');
  }, 240_000);

  it("runs createFake in the consumer's Vitest: its own test and the shipped example", async () => {
    const output = await runIn(kit.project, process.execPath, [join(kit.project, 'node_modules/vitest/vitest.mjs'), 'run', '--reporter', 'verbose']);
    expect(output).toMatch(/consumer\.test\.ts/);
    expect(output).toMatch(/event-log\.test\.ts/);
    expect(output).toMatch(/Tests +4 passed/);
  }, 120_000);
});

/** Reads the banner of `serve` until its API base URL. */
function bannerBaseUrl(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = '';
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = /API base URL: (http:\/\/127\.0\.0\.1:\d+\/node\/api)\n/.exec(output);
      if (match?.[1]) resolve(match[1]);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${output}`)));
  });
}

/** Ends the server and npx (npx passes SIGTERM on; a straggler gets SIGKILL). */
async function stopTree(child: ChildProcess): Promise<void> {
  const pids = descendants(child.pid as number).map((p) => p.pid);
  const exited = new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())));
  for (const pid of [child.pid as number, ...pids]) {
    try {
      process.kill(pid, 'SIGTERM');
    } catch {
      // already gone
    }
  }
  const timer = setTimeout(() => {
    for (const pid of [child.pid as number, ...pids]) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  }, 5000);
  await exited;
  clearTimeout(timer);
}
