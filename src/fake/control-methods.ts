import type {
  Blocks,
  BlocksCleared,
  Cleared,
  ConfigUpdate,
  ControlConfig,
  EventLogRecordInput,
  Fault,
  FaultSpec,
  IngestCounts,
  RequestRecord,
  SessionSummary,
  Snapshot,
  StateSummary,
  TargetOperationId,
} from '../spec/control-types.js';
import type { BlockedRequest, EventLogRecord } from '../spec/types.js';
import type { ControlCall } from './control-client.js';

/** Filters of `fake.requests()`: an operation, a status (`400`) or class (`4xx`), a time (ms) from which on, the newest `limit`. */
export interface RequestFilter {
  readonly operationId?: string;
  readonly status?: number | string;
  readonly since?: number;
  readonly limit?: number;
}

/** The control operations of a fake as methods: each is one call of the control API. */
export interface FakeControl {
  /** Back to the seed (and the start-up configuration, unless keepConfig; every session ends, unless keepSessions). */
  reset(options?: { keepConfig?: boolean; keepSessions?: boolean }): Promise<StateSummary>;
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
  /** Whether the SNMP listener and the MQTT broker run, and what became of what each received. */
  ingestCounts(): Promise<IngestCounts>;
}

/** The control operations, made through `call` (in-process, validated as over HTTP). */
export function controlMethods(call: ControlCall): FakeControl {
  return {
    reset: ({ keepConfig, keepSessions } = {}) => call('resetState', { query: { keepConfig, keepSessions } }),
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
    ingestCounts: () => call('getIngestCounts'),
  };
}
