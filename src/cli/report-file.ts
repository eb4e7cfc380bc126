// The --output file of `check`: its place is checked before the run, so a run of minutes does
// not end in an unwritten report, and a failed write is a usage error (exit 2), not a crash.
import { accessSync, constants, existsSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { UsageError } from '../contract/errors.js';

export function reportFile(path: string): (text: string) => void {
  const full = resolve(path);
  const refused = (error: unknown): UsageError => new UsageError(`cannot write the report to ${path}: ${error instanceof Error ? error.message : String(error)}`);
  try {
    if (existsSync(full)) {
      if (statSync(full).isDirectory()) throw new Error('it is a directory');
      accessSync(full, constants.W_OK);
    } else {
      accessSync(dirname(full), constants.W_OK);
    }
  } catch (error) {
    throw refused(error);
  }
  return (text) => {
    try {
      writeFileSync(full, text);
    } catch (error) {
      throw refused(error);
    }
  };
}
