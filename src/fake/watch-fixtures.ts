import { watch, type FSWatcher } from 'node:fs';
import { basename, dirname, resolve } from 'node:path';

/** Wait this long after the last change before reloading: editors write a file in several steps. */
const SETTLE_MS = 150;

/**
 * Calls `reload` once the files stop changing, never two at once. The folders are watched, not the
 * files, so a save by renaming a new file over the old is seen; one that cannot be watched is told to `onError`.
 */
export function watchFixtureFiles(files: readonly string[], reload: () => Promise<void>, onError: (error: Error) => void): { close(): void } {
  const byFolder = new Map<string, Set<string>>();
  for (const file of files.map((f) => resolve(f))) {
    const names = byFolder.get(dirname(file)) ?? new Set<string>();
    names.add(basename(file));
    byFolder.set(dirname(file), names);
  }
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let again = false;
  const run = () => {
    timer = undefined;
    if (running) {
      again = true;
      return;
    }
    running = reload().finally(() => {
      running = undefined;
      if (again) {
        again = false;
        schedule();
      }
    });
  };
  const schedule = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(run, SETTLE_MS);
    timer.unref();
  };
  const watchers: FSWatcher[] = [...byFolder].flatMap(([folder, names]) => {
    try {
      const watcher = watch(folder, { persistent: false }, (_event, name) => {
        if (name === null || names.has(String(name))) schedule();
      });
      watcher.on('error', onError);
      return [watcher];
    } catch (error) {
      onError(error as Error);
      return [];
    }
  });
  return {
    close() {
      if (timer) clearTimeout(timer);
      for (const watcher of watchers) watcher.close();
    },
  };
}
