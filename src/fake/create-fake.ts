import type { FastifyInstance } from 'fastify';
import type { IngestHandle } from '../ingest/delivery.js';
import { startLiveFeed, type FeedTimers, type LiveFeed } from '../live/live-feed.js';
import { buildFakeWithListenHosts, type FakeApp } from '../server/build.js';
import { LISTEN_BACKLOG } from '../server/connection-limits.js';
import { watchFixtureFiles } from './watch-fixtures.js';
import type { FakeOptions } from '../server/options.js';
import { createSpecValidator } from '../spec/index.js';
import type {
  Blocks,
  BlocksCleared,
  Cleared,
  ConfigUpdate,
  ControlConfig,
  EventLogRecordInput,
  Fault,
  FaultSpec,
  RequestRecord,
  SessionSummary,
  Snapshot,
  StateSummary,
  TargetOperationId,
} from '../spec/control-types.js';
import type { BlockedRequest, EventLogRecord } from '../spec/types.js';
import { controlClient } from './control-client.js';

export interface CreateFakeOptions extends FakeOptions {
  /** New seeded event log records per second (default 0: none). */
  readonly liveRate?: number;
  /** Receive SNMP traps on this UDP port (0: a free one; default: no listener). */
  readonly snmpPort?: number;
  /** SNMP communities accepted (default `public`). */
  readonly snmpCommunity?: string | readonly string[];
  /** Run an MQTT broker on this TCP port (0: a free one; default: no broker). */
  readonly mqttPort?: number;
  /** Address the SNMP listener and MQTT broker bind (default 127.0.0.1). */
  readonly ingestHost?: string;
  /** Timers of the live feed (tests pass their own). */
  readonly timers?: FeedTimers;
  /** Told of each record the live feed, the SNMP listener or the MQTT broker has stored. */
  readonly onRecord?: (record: EventLogRecord, source: RecordSource) => void;
  /**
   * Reload the users file and the event fixture files when they change (default false):
   * sessions stay; files with problems keep the old data, and every problem is logged.
   */
  readonly watch?: boolean;
  /** Told after each reload of watched files: no error, or the error naming every problem. */
  readonly onFixturesReload?: (error?: Error) => void;
}

/** Where a record that was not seeded came from. */
export type RecordSource = 'live' | 'snmp' | 'mqtt';

/** A seeded user: the fake's development credentials. */
export interface SeededUser {
  readonly id: string;
  readonly login: string;
  readonly password: string;
  readonly permissions: readonly string[];
}

/** Where a listening fake answers. */
export interface FakeUrls {
  /** e.g. http://127.0.0.1:4010 */
  readonly origin: string;
  /** The monitoring API: origin + /node/api */
  readonly baseUrl: string;
  /** The docs page: origin + /docs */
  readonly docsUrl: string;
  /** The control API: origin + /__control */
  readonly controlUrl: string;
  /** The request inspector page: origin + /__inspector */
  readonly inspectorUrl: string;
}

/** Filters of `fake.requests()`: an operation, a status (`400`) or class (`4xx`), a time (ms) from which on, the newest `limit`. */
export interface RequestFilter {
  readonly operationId?: string;
  readonly status?: number | string;
  readonly since?: number;
  readonly limit?: number;
}

/** A running fake with its control operations as methods. */
export interface Fake {
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
  /** Back to the seed (and the start-up configuration, unless keepConfig). */
  reset(options?: { keepConfig?: boolean }): Promise<StateSummary>;
  addRecords(records: readonly EventLogRecordInput[]): Promise<EventLogRecord[]>;
  /** Makes the event log hold exactly these records (completed like addRecords); `[]` empties it. */
  replaceEventLog(records: readonly EventLogRecordInput[]): Promise<EventLogRecord[]>;
  /** Empties the event log; returns how many records it held. */
  clearEventLog(): Promise<number>;
  snapshot(): Promise<Snapshot>;
  restore(snapshot: Snapshot): Promise<StateSummary>;
  sessions(): Promise<SessionSummary[]>;
  clearSessions(userId?: string): Promise<number>;
  blocks(): Promise<Blocks>;
  clearBlocks(scope?: 'active' | 'log' | 'all'): Promise<BlocksCleared>;
  /** Makes the block log hold exactly these records; `[]` empties it. Active blocks stay. */
  replaceBlockLog(records: readonly BlockedRequest[]): Promise<BlockedRequest[]>;
  /** Empties the block log; returns how many records it held. */
  clearBlockLog(): Promise<number>;
  config(): Promise<ControlConfig>;
  setConfig(update: ConfigUpdate): Promise<ControlConfig>;
  injectFault(fault: FaultSpec): Promise<Fault>;
  faults(): Promise<Fault[]>;
  clearFaults(operationId?: TargetOperationId): Promise<number>;
  deleteFault(id: string): Promise<void>;
  /** The journal of the requests the monitoring API answered, newest first, secrets masked; filters as `GET /__control/requests`. */
  requests(filter?: RequestFilter): Promise<RequestRecord[]>;
  /** Empties the journal; returns how many requests it held. */
  clearRequests(): Promise<number>;
  /** Stops the live feed and the ingesters, and closes the app. Safe to call twice. */
  close(): Promise<void>;
}

function urlsOf(app: FastifyInstance, host: string): FakeUrls {
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  return { origin, baseUrl: `${origin}/node/api`, docsUrl: `${origin}/docs`, controlUrl: `${origin}/__control`, inspectorUrl: `${origin}/__inspector` };
}

/**
 * The event log of the fake, where live and received records go: at once, or, while the
 * seed's records are still being made, once they are (in the order the records came, with the
 * ids and times they came with); the promise then rejects when the record is not stored.
 */
function eventSink(app: FakeApp, source: RecordSource, onRecord: CreateFakeOptions['onRecord']): (record: EventLogRecord) => void | Promise<void> {
  const { events } = app.fake.state.data;
  const store = (record: EventLogRecord) => {
    const stored = events.add(record);
    onRecord?.(stored, source);
  };
  return (record) => events.whenMade(() => store(record));
}

/** Reloads the fixture files, logging the outcome: every problem when they have some (the old data then stays). */
async function reloadFixtures(app: FakeApp, told: CreateFakeOptions['onFixturesReload']): Promise<void> {
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

/**
 * The fake of the monitoring API in-process: `await createFake()` in a test, then
 * `fake.inject(...)` or `await fake.listen()`; control operations are methods.
 */
export async function createFake(options: CreateFakeOptions = {}): Promise<Fake> {
  const { app, answerListenHost } = await buildFakeWithListenHosts(options);
  const { clock, seed, spec, controlSpec } = app.fake.options;
  const call = controlClient(app, controlSpec);
  // Made again only when the users file was reloaded (watch).
  let users: { of: readonly unknown[]; byLogin: Readonly<Record<string, SeededUser>> } | undefined;
  const usersByLogin = () => {
    if (users?.of !== app.fake.seededUsers) {
      users = { of: app.fake.seededUsers, byLogin: Object.fromEntries(app.fake.seededUsers.map(({ authenticationToken: _t, ...u }) => [u.login, Object.freeze(u)])) };
    }
    return users.byLogin;
  };

  const ingesters: IngestHandle[] = [];
  const watched = [app.fake.options.users, ...app.fake.options.eventFixtures];
  const watcher = options.watch
    ? watchFixtureFiles(watched, () => reloadFixtures(app, options.onFixturesReload), (error) => app.log.warn({ err: error }, 'fixture files cannot be watched; edits are not reloaded'))
    : undefined;
  let live: LiveFeed | undefined;
  let urls: FakeUrls | undefined;
  let closing: Promise<void> | undefined;
  const shutdown = async () => {
    watcher?.close();
    live?.stop();
    await Promise.allSettled(ingesters.map((i) => i.close()));
    await app.close();
  };

  try {
    if (options.liveRate) live = startLiveFeed({ rate: options.liveRate, seed, clock, add: eventSink(app, 'live', options.onRecord), timers: options.timers });
    const host = options.ingestHost ?? '127.0.0.1';
    const validator = createSpecValidator(spec);
    const onDrop = (drop: { reason: string; detail?: string; from?: string }) => app.log.warn({ drop }, 'an incoming event was dropped');
    // The SNMP and MQTT libraries are loaded only when their ports are asked for.
    if (options.snmpPort !== undefined) {
      const { startSnmpTrapListener } = await import('../ingest/snmp-trap-listener.js');
      const community = options.snmpCommunity === undefined ? undefined : [options.snmpCommunity].flat();
      ingesters.push(await startSnmpTrapListener({ port: options.snmpPort, host, community, clock, sink: eventSink(app, 'snmp', options.onRecord), validator, onDrop }));
    }
    if (options.mqttPort !== undefined) {
      const { startMqttBroker } = await import('../ingest/mqtt-broker.js');
      ingesters.push(await startMqttBroker({ port: options.mqttPort, host, clock, sink: eventSink(app, 'mqtt', options.onRecord), validator, onDrop }));
    }
  } catch (error) {
    await shutdown();
    throw error;
  }
  const snmp = options.snmpPort !== undefined ? ingesters[0] : undefined;
  const mqtt = options.mqttPort !== undefined ? ingesters.at(-1) : undefined;

  return {
    app,
    inject: app.inject.bind(app) as FakeApp['inject'],
    get users() {
      return usersByLogin();
    },
    get urls() {
      return urls;
    },
    snmpPort: snmp?.port,
    mqttPort: mqtt?.port,
    async listen({ port = 0, host = '127.0.0.1' } = {}) {
      // A burst of new connections is queued by the kernel rather than left to the clients' SYN retries.
      await app.listen({ port, host, backlog: LISTEN_BACKLOG });
      // A page or test that calls the fake by the name it listens on is answered, as with `serve --host`.
      answerListenHost(host);
      urls = urlsOf(app, host);
      return urls;
    },
    reset: ({ keepConfig } = {}) => call('resetState', { query: { keepConfig } }),
    addRecords: (records) => call('addEventLogRecords', { body: [...records] }),
    replaceEventLog: (records) => call('replaceEventLog', { body: [...records] }),
    clearEventLog: async () => (await call('clearEventLog')).cleared,
    snapshot: () => call('exportSnapshot'),
    restore: (snapshot) => call('importSnapshot', { body: snapshot }),
    sessions: () => call('listSessions'),
    clearSessions: async (userId) => ((await call('clearSessions', { query: { userId } })) as Cleared).cleared,
    blocks: () => call('listBlocks'),
    clearBlocks: (scope) => call('clearBlocks', { query: { scope } }),
    replaceBlockLog: (records) => call('replaceBlockLog', { body: [...records] }),
    clearBlockLog: async () => (await call('clearBlockLog')).cleared,
    config: () => call('getConfig'),
    setConfig: (update) => call('updateConfig', { body: update }),
    injectFault: (fault) => call('injectFault', { body: fault }),
    faults: () => call('listFaults'),
    clearFaults: async (operationId) => ((await call('clearFaults', { query: { operationId } })) as Cleared).cleared,
    deleteFault: async (id) => {
      await call('deleteFault', { path: { faultId: id } });
    },
    requests: (filter = {}) => call('listRequests', { query: filter as { readonly [K in keyof RequestFilter]?: string } }),
    clearRequests: async () => ((await call('clearRequests')) as Cleared).cleared,
    close() {
      closing ??= shutdown();
      return closing;
    },
  };
}
