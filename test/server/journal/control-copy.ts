import { copyFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { controlApiPath, loadSpec, monitoringApiPath, type Spec } from '../../../src/spec/index.js';

// Copies of the fake's control document with a line changed, to show that the fake obeys what
// the document states. The control document refers to the monitoring document by a relative
// path: both are copied, into a temporary folder. Test files share this module in a worker, so
// the folder is made when a copy is asked for and none exists, never removed by one file's end.
let folder: string | undefined;
function copiesFolder(): string {
  if (folder === undefined || !existsSync(folder)) {
    folder = mkdtempSync(join(tmpdir(), 'control-copy-'));
    copyFileSync(monitoringApiPath, join(folder, 'monitoring-api.yaml'));
  }
  return folder;
}
const kitText = readFileSync(controlApiPath, 'utf8');
let copies = 0;

/**
 * The path of a copy of the kit's control document in which each `key: was` line given reads
 * `key: now` instead (now undefined takes the line out); each such line must be in the kit's
 * document once.
 */
export function controlCopyPath(changes: readonly { key: string; was: string | number; now: string | number | undefined }[]): string {
  let text = kitText;
  for (const { key, was, now } of changes) {
    const line = new RegExp(`^( +)${key}: ${was}\\n`, 'gm');
    expect(text.match(line), `the kit's control document states ${key}: ${was} once`).toHaveLength(1);
    text = text.replace(line, now === undefined ? '' : `$1${key}: ${now}\n`);
  }
  const file = join(copiesFolder(), `control-${++copies}.yaml`);
  writeFileSync(file, text);
  return file;
}

/** The copy of controlCopyPath, loaded (and validated, as any document not the kit's own). */
export const controlCopy = (changes: Parameters<typeof controlCopyPath>[0]): Promise<Spec> => loadSpec(controlCopyPath(changes));
