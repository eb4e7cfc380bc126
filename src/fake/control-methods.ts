import type { FastifyInstance } from 'fastify';
import type { Spec } from '../spec/index.js';
import type { Cleared, ConfigUpdate, ControlOperationId, controlOperations, EventLogRecordInput, FaultSpec, Snapshot, TargetOperationId } from '../spec/control-types.js';
import type { ApiErrorBody, BlockedRequest } from '../spec/types.js';

type Operation<Op extends ControlOperationId> = controlOperations[Op];
type JsonOf<T> = T extends { content: { 'application/json': infer B } } ? B : undefined;
/** The body of the operation's success answer (its one 2xx; undefined when it has none). */
export type ControlResult<Op extends ControlOperationId> = {
  [S in keyof Operation<Op>['responses']]: S extends 200 | 201 | 204 ? JsonOf<Operation<Op>['responses'][S]> : never;
}[keyof Operation<Op>['responses']];
type Query<Op extends ControlOperationId> = Operation<Op>['parameters'] extends { query?: infer Q } ? Q : never;
type Path<Op extends ControlOperationId> = Operation<Op>['parameters'] extends { path: infer P } ? P : never;
type RequestBody<Op extends ControlOperationId> = Operation<Op> extends { requestBody: infer B } ? JsonOf<B> : never;

export interface ControlRequest<Op extends ControlOperationId> {
  readonly query?: Query<Op>;
  readonly path?: Path<Op>;
  readonly body?: RequestBody<Op>;
}

/** A control API call that was refused; `body` is the monitoring API's Error body. */
export class ControlApiError extends Error {
  override readonly name = 'ControlApiError';
  constructor(
    readonly operationId: ControlOperationId,
    readonly status: number,
    readonly body: ApiErrorBody,
  ) {
    super(`${operationId} failed with ${status} ${body.code}: ${body.message}`);
  }
}

export type ControlCall = <Op extends ControlOperationId>(operationId: Op, request?: ControlRequest<Op>) => Promise<ControlResult<Op>>;

/**
 * Calls control operations in-process through `app.inject`, so every call is validated and
 * answered exactly as over HTTP; typed by the control API document's generated types.
 */
export function controlClient(app: FastifyInstance, controlSpec: Spec): ControlCall {
  return async (operationId, request = {}) => {
    const op = controlSpec.operation(operationId);
    const path = request.path as Record<string, string> | undefined;
    const url = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(path?.[name] ?? '')));
    const query = Object.entries((request.query ?? {}) as Record<string, unknown>).filter(([, v]) => v !== undefined);
    const search = query.length > 0 ? `?${new URLSearchParams(query.map(([k, v]) => [k, String(v)])).toString()}` : '';
    const response = await app.inject({
      method: op.method.toUpperCase() as 'GET',
      url: url + search,
      ...(request.body === undefined ? {} : { payload: request.body as object }),
    });
    const body: unknown = response.body.length > 0 ? JSON.parse(response.body) : undefined;
    if (response.statusCode >= 300) throw new ControlApiError(operationId, response.statusCode, body as ApiErrorBody);
    return body as never;
  };
}

/** Filters of `fake.requests()`: an operation, a status (`400`) or class (`4xx`), a time (ms) from which on, the newest `limit`. */
export interface RequestFilter {
  readonly operationId?: string;
  readonly status?: number | string;
  readonly since?: number;
  readonly limit?: number;
}

/** The control operations, made through `call` (in-process, validated as over HTTP): each method is one call of the control API. */
export function controlMethods(call: ControlCall) {
  return {
    /** Back to the seed (and the start-up configuration, unless keepConfig; every session ends, unless keepSessions). */
    reset: ({ keepConfig, keepSessions }: { keepConfig?: boolean; keepSessions?: boolean } = {}) => call('resetState', { query: { keepConfig, keepSessions } }),
    addRecords: (records: readonly EventLogRecordInput[]) => call('addEventLogRecords', { body: [...records] }),
    /** Makes the event log hold exactly these records (completed like addRecords); `[]` empties it. */
    replaceEventLog: (records: readonly EventLogRecordInput[]) => call('replaceEventLog', { body: [...records] }),
    /** Empties the event log; returns how many records it held. */
    clearEventLog: async (): Promise<number> => (await call('clearEventLog')).cleared,
    snapshot: () => call('exportSnapshot'),
    restore: (snapshot: Snapshot) => call('importSnapshot', { body: snapshot }),
    sessions: () => call('listSessions'),
    clearSessions: async (userId?: string): Promise<number> => ((await call('clearSessions', { query: { userId } })) as Cleared).cleared,
    blocks: () => call('listBlocks'),
    clearBlocks: (scope?: 'active' | 'log' | 'all') => call('clearBlocks', { query: { scope } }),
    /** Makes the block log hold exactly these records; `[]` empties it. Active blocks stay. */
    replaceBlockLog: (records: readonly BlockedRequest[]) => call('replaceBlockLog', { body: [...records] }),
    /** Empties the block log; returns how many records it held. */
    clearBlockLog: async (): Promise<number> => (await call('clearBlockLog')).cleared,
    config: () => call('getConfig'),
    setConfig: (update: ConfigUpdate) => call('updateConfig', { body: update }),
    injectFault: (fault: FaultSpec) => call('injectFault', { body: fault }),
    faults: () => call('listFaults'),
    clearFaults: async (operationId?: TargetOperationId): Promise<number> => ((await call('clearFaults', { query: { operationId } })) as Cleared).cleared,
    deleteFault: async (id: string): Promise<void> => {
      await call('deleteFault', { path: { faultId: id } });
    },
    /** The journal of the requests the monitoring API answered, newest first, secrets masked; filters as `GET /__control/requests`. */
    requests: (filter: RequestFilter = {}) => call('listRequests', { query: filter as { readonly [K in keyof RequestFilter]?: string } }),
    /** Empties the journal; returns how many requests it held. */
    clearRequests: async (): Promise<number> => ((await call('clearRequests')) as Cleared).cleared,
    /** Whether the SNMP listener and the MQTT broker run, and what became of what each received. */
    ingestCounts: () => call('getIngestCounts'),
  };
}

/** The control operations of a fake as methods. */
export type FakeControl = ReturnType<typeof controlMethods>;
