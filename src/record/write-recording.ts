// A recording is written whole or not at all: into a hidden folder beside --out, the manifest
// last, then renamed to --out. A run that fails leaves nothing behind, and a folder named --out
// always holds a complete recording. Every line is checked for the run's secrets on its way out.
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { once } from 'node:events';
import { UsageError } from '../contract/errors.js';
import type { Secrets } from '../shared/redaction/secret-values.js';
import { RECORDING_FILES, type RecordingManifest } from '../shared/recording-layout.js';

/** --out must be a new folder or an empty one; checked before recording, so no run is wasted. */
export async function assertWritableOut(out: string): Promise<void> {
  const path = resolve(out);
  const found = await stat(path).catch(() => undefined);
  if (!found) return;
  if (!found.isDirectory()) throw new UsageError(`--out ${out} is a file, not a folder`);
  if ((await readdir(path)).length > 0) throw new UsageError(`--out ${out} is not empty: give a new or empty folder`);
}

/** Writes a JSON array one element a line, so no single string holds a whole large log. */
async function writeArray(path: string, items: readonly unknown[], guard: (line: string) => void): Promise<void> {
  const stream = createWriteStream(path, { encoding: 'utf8' });
  const closed = once(stream, 'close');
  try {
    const write = async (text: string): Promise<void> => {
      if (!stream.write(text)) await once(stream, 'drain');
    };
    await write('[');
    for (let i = 0; i < items.length; i++) {
      const line = JSON.stringify(items[i]);
      guard(line);
      await write(`${i === 0 ? '' : ','}\n${line}`);
    }
    await write('\n]\n');
  } finally {
    stream.end();
    await closed;
  }
}

export interface RecordingFiles {
  readonly events: readonly unknown[];
  readonly keptInvalid: readonly unknown[];
  readonly blocks?: readonly unknown[];
  readonly users?: readonly unknown[];
}

export async function writeRecording(out: string, files: RecordingFiles, manifest: RecordingManifest, secrets: Secrets): Promise<void> {
  const target = resolve(out);
  await assertWritableOut(target);
  await mkdir(dirname(target), { recursive: true });
  const temporary = await mkdtemp(join(dirname(target), `.${basename(target)}.partial-`));
  const guard = (line: string): void => {
    // The records were masked already; this is the last line of defence.
    if (secrets.mask(line) !== line) throw new Error('a secret of the run was about to be written; nothing was written');
  };
  try {
    await writeArray(join(temporary, RECORDING_FILES.events), files.events, guard);
    if (files.keptInvalid.length > 0) await writeArray(join(temporary, RECORDING_FILES.keptInvalid), files.keptInvalid, guard);
    if (files.blocks) await writeArray(join(temporary, RECORDING_FILES.blocks), files.blocks, guard);
    if (files.users) await writeArray(join(temporary, RECORDING_FILES.users), files.users, guard);
    const text = `${JSON.stringify(manifest, null, 2)}\n`;
    guard(text);
    const stream = createWriteStream(join(temporary, RECORDING_FILES.manifest));
    stream.end(text);
    await once(stream, 'close');
    if (await stat(target).catch(() => undefined)) await rmdir(target);
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { recursive: true, force: true });
    throw error;
  }
}
