import { constants, type Stats } from 'node:fs';
import { open } from 'node:fs/promises';

/** The largest fixture file read (a users file, a file of event log records), in bytes. */
export const FIXTURE_FILE_MAX_BYTES = 128 * 2 ** 20;

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a folder';
  if (stats.isFIFO()) return 'a FIFO';
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device';
  if (stats.isSocket()) return 'a socket';
  return 'something else';
}

/**
 * A fixture file's text, read without blocking: a regular file only (a link is followed), of at
 * most FIXTURE_FILE_MAX_BYTES. What the opened file is, not what the path named a moment
 * before, is checked, so a FIFO (which would wait for a writer) or a link to /dev/zero (which
 * never ends) is refused, never read. Throws an error saying why, without the path.
 */
export async function readFixtureFile(path: string): Promise<string> {
  // O_NONBLOCK: opening a FIFO returns at once instead of waiting for a writer.
  const file = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const stats = await file.stat();
    if (!stats.isFile()) throw new Error(`it is ${kindOf(stats)}, not a regular file`);
    if (stats.size > FIXTURE_FILE_MAX_BYTES) throw new Error(`it has ${stats.size} bytes; a fixture file may have ${FIXTURE_FILE_MAX_BYTES} at most`);
    return await file.readFile('utf8');
  } finally {
    await file.close();
  }
}
