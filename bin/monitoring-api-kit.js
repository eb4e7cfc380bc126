#!/usr/bin/env node
// Runs the build in dist/. Only in a git checkout of the kit (src/ and .git beside this bin),
// when a file of src/ is newer than the build, it runs the TypeScript sources through tsx (a
// dev dependency) instead, so a developer's command runs the code as it stands. An installed
// package ships no src/, so it always runs the build.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const built = new URL('../dist/cli/main.js', import.meta.url);
const root = fileURLToPath(new URL('..', import.meta.url));
const sources = join(root, 'src');

function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

function sourcesAreNewer() {
  if (!existsSync(join(root, '.git')) || !existsSync(join(sources, 'cli', 'main.ts'))) return false;
  let builtAt;
  try {
    builtAt = statSync(built).mtimeMs;
  } catch {
    return true; // a checkout not built yet
  }
  return newest(sources) > builtAt;
}

if (sourcesAreNewer()) {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('../src/cli/main.ts', import.meta.url).href);
} else {
  await import(built.href);
}
