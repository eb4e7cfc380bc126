#!/usr/bin/env node
// Runs the TypeScript sources through tsx, so the command works without a build step.
import { register } from 'tsx/esm/api';

register();
await import(new URL('../src/cli/main.ts', import.meta.url).href);
