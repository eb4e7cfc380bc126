import type { FastifyInstance } from 'fastify';
import type { FixtureUser } from '../spec/types.js';
import { buildFakeWithListenHosts, type FakeApp } from '../server/build.js';
import { LISTEN_BACKLOG, type FakeOptions } from '../server/options.js';
import { controlClient, controlMethods, type FakeControl } from './control-methods.js';
import { startRecordSources, type RecordSourceOptions } from './record-sources.js';
import { watchFixtureFiles } from './watch-fixtures.js';

/** The fake's options, and those of the record sources and the fixture reloads that run beside it. */
export interface CreateFakeOptions extends FakeOptions, RecordSourceOptions, FixtureReloadOptions {}

/** A running fake with its control operations as methods. */
export interface Fake extends FakeControl {
  /** The Fastify app: `fake.app.inject(...)` in tests without a port. */
  readonly app: FakeApp;
  readonly inject: FakeApp['inject'];
  /** The seeded users by login, with their passwords (as the users file was last loaded). */
  readonly users: Readonly<Record<string, SeededUser>>;
  /** Where it listens, once `listen` was called. */
  readonly urls: FakeUrls | undefined;
  /** The bound UDP port of the SNMP listener, when one runs. */
  readonly snmpPort: number | undefined;
  /** The bound TCP port of the MQTT broker, when one runs. */
  readonly mqttPort: number | undefined;
  /** Listens (default 127.0.0.1, port 0: a free one); the API and the control API then answer the Host `host` names (unless 0.0.0.0 or ::), as `serve --host` does. */
  listen(options?: { port?: number; host?: string }): Promise<FakeUrls>;
  /** Stops the live feed and the ingesters, and closes the app. Safe to call twice. */
  close(): Promise<void>;
}

/**
 * The fake of the monitoring API in-process: `await createFake()` in a test, then
 * `fake.inject(...)` or `await fake.listen()`; control operations are methods.
 */
export async function createFake(options: CreateFakeOptions = {}): Promise<Fake> {
  const { app, answerListenHost } = await buildFakeWithListenHosts(options);
  const watcher = reloadFixturesOnChange(app, options);
  let sources: Awaited<ReturnType<typeof startRecordSources>> | undefined;
  let urls: FakeUrls | undefined;
  let closing: Promise<void> | undefined;
  const shutdown = async () => {
    watcher?.close();
    await sources?.stop();
    await app.close();
  };

  try {
    sources = await startRecordSources(app, options);
  } catch (error) {
    await shutdown();
    throw error;
  }

  return {
    ...controlMethods(controlClient(app, app.fake.options.controlSpec)),
    app,
    inject: app.inject.bind(app) as FakeApp['inject'],
    get users() {
      return Object.fromEntries(app.fake.seededUsers.map(({ authenticationToken: _t, ...u }) => [u.login, Object.freeze(u)]));
    },
    get urls() {
      return urls;
    },
    snmpPort: sources.snmpPort,
    mqttPort: sources.mqttPort,
    async listen({ port = 0, host = '127.0.0.1' } = {}) {
      // A burst of new connections is queued by the kernel rather than left to the clients' SYN retries.
      await app.listen({ port, host, backlog: LISTEN_BACKLOG });
      // A page or test that calls the fake by the name it listens on is answered, as with `serve --host`.
      answerListenHost(host);
      urls = urlsOf(app, host);
      return urls;
    },
    close() {
      closing ??= shutdown();
      return closing;
    },
  };
}

/** Where a listening fake answers: its origin (e.g. http://127.0.0.1:4010), the monitoring API, docs page, control API and request inspector under it. */
export type FakeUrls = Readonly<ReturnType<typeof urlsOf>>;

/** The URLs of a listening app, by the host it listens on (an IPv6 address goes in brackets). */
function urlsOf(app: FastifyInstance, host: string) {
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return { origin, baseUrl: `${origin}/node/api`, docsUrl: `${origin}/docs`, controlUrl: `${origin}/__control`, inspectorUrl: `${origin}/__inspector` };
}

/** A seeded user: the fake's development credentials (a users file's user without its token). */
export type SeededUser = Readonly<Omit<FixtureUser, 'authenticationToken'>>;

export interface FixtureReloadOptions {
  /**
   * Reload the users file and the event fixture files when they change (default false):
   * sessions stay; files with problems keep the old data, and every problem is logged.
   */
  readonly watch?: boolean;
  /** Told after each reload of watched files: no error, or the error naming every problem. */
  readonly onFixturesReload?: (error?: Error) => void;
}

/** With `watch`, reloads the users file and the event fixture files whenever they change, logging every problem (the old data then stays). */
function reloadFixturesOnChange(app: FakeApp, { watch, onFixturesReload: told }: FixtureReloadOptions): { close(): void } | undefined {
  if (!watch) return undefined;
  const reload = async (): Promise<void> => {
    try {
      await app.fake.reloadFixtures();
      app.log.info('fixture files reloaded');
      told?.();
    } catch (error) {
      app.log.error({ problems: (error as Error).message.split('\n').map((line) => line.trim()) }, 'fixture files not reloaded; the old data stays');
      told?.(error as Error);
    }
  };
  const onError = (error: Error) => app.log.warn({ err: error }, 'fixture files cannot be watched; edits are not reloaded');
  return watchFixtureFiles([app.fake.options.users, ...app.fake.options.eventFixtures], reload, onError);
}
