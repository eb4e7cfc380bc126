import type { FakeApp } from '../server/build.js';
import { watchFixtureFiles, type FixtureWatcher } from './watch-fixtures.js';

export interface FixtureReloadOptions {
  /**
   * Reload the users file and the event fixture files when they change (default false):
   * sessions stay; files with problems keep the old data, and every problem is logged.
   */
  readonly watch?: boolean;
  /** Told after each reload of watched files: no error, or the error naming every problem. */
  readonly onFixturesReload?: (error?: Error) => void;
}

/** Reloads the fixture files, logging the outcome: every problem when they have some (the old data then stays). */
async function reloadFixtures(app: FakeApp, told: FixtureReloadOptions['onFixturesReload']): Promise<void> {
  try {
    await app.fake.reloadFixtures();
    app.log.info('fixture files reloaded');
    told?.();
  } catch (error) {
    const problems = (error as Error).message.split('\n').map((line) => line.trim());
    app.log.error({ problems }, 'fixture files not reloaded; the old data stays');
    told?.(error as Error);
  }
}

/** With `watch`, reloads the users file and the event fixture files of the app whenever they change. */
export function reloadFixturesOnChange(app: FakeApp, options: FixtureReloadOptions): FixtureWatcher | undefined {
  if (!options.watch) return undefined;
  const watched = [app.fake.options.users, ...app.fake.options.eventFixtures];
  return watchFixtureFiles(watched, () => reloadFixtures(app, options.onFixturesReload), (error) => app.log.warn({ err: error }, 'fixture files cannot be watched; edits are not reloaded'));
}
