import { dirname, join, resolve } from 'node:path';
import { packageRoot } from '../spec/index.js';

const KIT_FIXTURES = join(packageRoot, 'fixtures');

/**
 * Whether a fixture file is one of the kit's own (fixtures/), which npm test checks against the
 * kit's own document (test/seed): loaded with that document, the fake skips checking them
 * again at each start (compiling the record schemas was a tenth of it). Files of users, and
 * any file with another document, are always checked.
 */
export function checkedByTheKitsTests(file: string, kitDocument: boolean): boolean {
  return kitDocument && dirname(resolve(file)) === KIT_FIXTURES;
}
