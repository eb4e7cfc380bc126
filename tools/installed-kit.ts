// The kit as a user gets it: `npm pack`, then the tarball installed into an empty temporary
// project. The install test and the benchmarks run this, never the checkout. The pack runs in
// a copy of the checkout (its node_modules linked), so its build never touches this dist/.
import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import semver from 'semver';

const run = promisify(execFile);
export const repositoryRoot = fileURLToPath(new URL('..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/**
 * The environment for a child npm, npx or Vitest: without npm's own `npm_*` variables (set when
 * this runs under `npm test`, they would steer a child npm to this checkout) or Vitest's.
 */
export function childEnvironment(): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^(npm_|vitest|vite_)/i.test(key)));
  return { ...env, NO_UPDATE_NOTIFIER: '1', NO_COLOR: '1' };
}

/** Runs a command in a folder; its stdout and stderr together, or an error that holds them. */
export async function runIn(cwd: string, command: string, args: readonly string[]): Promise<string> {
  try {
    const { stdout, stderr } = await run(command, [...args], { cwd, env: childEnvironment(), maxBuffer: 64 * 2 ** 20 });
    return `${stdout}${stderr}`;
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${stdout}${stderr}`);
  }
}

const npmIn = (cwd: string, args: readonly string[]) => runIn(cwd, npm, args);

/** Files of the checkout git knows of, tracked or not ignored. */
async function checkoutFiles(): Promise<string[]> {
  const { stdout } = await run('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: repositoryRoot, maxBuffer: 64 * 2 ** 20 });
  return stdout.split('\0').filter((file) => file !== '');
}

/**
 * `npm pack` of the checkout as it stands (its `prepare` builds dist/), in a copy of it, so that
 * the build does not replace this checkout's dist/ under tests that run it. Returns the tarball's path.
 */
export async function packKit(destination: string): Promise<string> {
  const staging = await mkdtemp(join(tmpdir(), 'kit-pack-'));
  try {
    for (const file of await checkoutFiles()) {
      const from = join(repositoryRoot, file);
      if (!(await stat(from).catch(() => undefined))?.isFile()) continue; // deleted but not yet staged
      await mkdir(dirname(join(staging, file)), { recursive: true });
      await cp(from, join(staging, file));
    }
    await symlink(join(repositoryRoot, 'node_modules'), join(staging, 'node_modules'), 'dir');
    const before = new Set(await readdir(destination));
    const output = await npmIn(staging, ['pack', '--pack-destination', destination]);
    const packed = (await readdir(destination)).filter((file) => file.endsWith('.tgz') && !before.has(file));
    if (packed.length !== 1) throw new Error(`npm pack made no single tarball:\n${output}`);
    return join(destination, packed[0] as string);
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

export interface InstalledKit {
  /** The temporary project. */
  readonly project: string;
  /** project/node_modules/monitoring-api-kit */
  readonly packageDir: string;
  /** The installed bin script. */
  readonly bin: string;
  readonly tarball: string;
  /** What `npm install` printed. */
  readonly installOutput: string;
  /** Removes the project and the tarball. */
  remove(): Promise<void>;
}

/**
 * Packs the kit and installs the tarball into a new, empty ESM project, with `also` beside it
 * (e.g. `typescript@5.9.3`). `--prefer-offline` takes what the npm cache has (warm after `npm ci`),
 * asking the registry only for what it lacks.
 */
export async function installKit(also: readonly string[] = []): Promise<InstalledKit> {
  const project = await mkdtemp(join(tmpdir(), 'kit-consumer-'));
  try {
    const tarball = await packKit(project);
    await writeFile(join(project, 'package.json'), `${JSON.stringify({ name: 'kit-consumer', version: '1.0.0', private: true, type: 'module' }, null, 2)}\n`);
    const installOutput = await npmIn(project, ['install', '--prefer-offline', '--no-audit', '--no-fund', tarball, ...also]);
    const packageDir = join(project, 'node_modules', 'monitoring-api-kit');
    return {
      project,
      packageDir,
      bin: join(packageDir, 'bin', 'monitoring-api-kit.js'),
      tarball,
      installOutput,
      remove: () => rm(project, { recursive: true, force: true }),
    };
  } catch (error) {
    await rm(project, { recursive: true, force: true });
    throw error;
  }
}

/** `name@version` of a package installed in this checkout, for a consumer to install the same (a cache hit). */
export async function sameVersionAsHere(name: string): Promise<string> {
  const manifest = JSON.parse(await readFile(join(repositoryRoot, 'node_modules', name, 'package.json'), 'utf8')) as { version: string };
  return `${name}@${manifest.version}`;
}

export interface InstalledPackage {
  readonly name: string;
  readonly version: string;
  readonly path: string;
  readonly engines?: { readonly node?: string };
}

/** Every package under a project's node_modules (nested ones too). */
export async function installedPackages(project: string): Promise<InstalledPackage[]> {
  const found: InstalledPackage[] = [];
  const visit = async (modules: string): Promise<void> => {
    const entries = await readdir(modules, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
      const path = join(modules, entry.name);
      if (entry.name.startsWith('@')) {
        await visit(path);
        continue;
      }
      const manifest = await readFile(join(path, 'package.json'), 'utf8').catch(() => undefined);
      if (manifest === undefined) continue;
      const { name, version, engines } = JSON.parse(manifest) as InstalledPackage;
      found.push({ name, version, path, ...(engines ? { engines } : {}) });
      await visit(join(path, 'node_modules'));
    }
  };
  await visit(join(project, 'node_modules'));
  return found;
}

/** Installed packages whose `engines.node` does not admit `nodeVersion`. */
export function engineMismatches(packages: readonly InstalledPackage[], nodeVersion: string): string[] {
  return packages
    .filter((p) => typeof p.engines?.node === 'string' && !semver.satisfies(nodeVersion, p.engines.node, { includePrerelease: true }))
    .map((p) => `${p.name}@${p.version} needs node ${p.engines?.node}`);
}

/** The lowest Node version the kit's `engines` admits (20.19.0 for `>=20.19`). */
export async function engineFloor(): Promise<string> {
  const manifest = JSON.parse(await readFile(join(repositoryRoot, 'package.json'), 'utf8')) as { engines: { node: string } };
  const floor = semver.minVersion(manifest.engines.node);
  if (!floor) throw new Error(`no lowest version in engines.node ${manifest.engines.node}`);
  return floor.version;
}

/** Bytes of the files under a folder, as stored (not disk blocks). */
export async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile()) total += (await stat(join(entry.parentPath, entry.name))).size;
  }
  return total;
}
