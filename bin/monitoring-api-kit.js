#!/usr/bin/env node
// Runs the build in dist/ when it is at least as new as every file of src/ (npm ci and
// npm install build it through `prepare`), else the TypeScript sources through tsx, so the
// command always runs the code as it stands. The build starts in about half the time.
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const built = new URL('../dist/cli/main.js', import.meta.url);
const sources = fileURLToPath(new URL('../src', import.meta.url));

function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    latest = Math.max(latest, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return latest;
}

function builtIsCurrent() {
  let builtAt;
  try {
    builtAt = statSync(built).mtimeMs;
  } catch {
    return false; // not built
  }
  try {
    return builtAt >= newest(sources);
  } catch {
    return true; // no sources beside the build
  }
}

if (builtIsCurrent()) {
  await import(built.href);
} else {
  const { register } = await import('tsx/esm/api');
  register();
  await import(new URL('../src/cli/main.ts', import.meta.url).href);
}
