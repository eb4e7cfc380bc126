import { buildFakeWithListenHosts, type FakeApp } from '../server/build.js';
import { LISTEN_BACKLOG } from '../server/options.js';
import type { FakeOptions } from '../server/options.js';
import { controlClient } from './control-client.js';
import { controlMethods, type FakeControl } from './control-methods.js';
import { urlsOf, type FakeUrls } from './fake-urls.js';
import { startRecordSources, type RecordSourceOptions, type RecordSources } from './record-sources.js';
import { reloadFixturesOnChange, type FixtureReloadOptions } from './reload-fixtures.js';
import { seededUsersByLogin, type SeededUser } from './seeded-users.js';

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
  const usersByLogin = seededUsersByLogin(app);
  const watcher = reloadFixturesOnChange(app, options);
  let sources: RecordSources | undefined;
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
      return usersByLogin();
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
