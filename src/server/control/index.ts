import type { FastifyInstance } from 'fastify';
import type { ApiError, ErrorFactory } from '../../errors.js';
import type { Clock } from '../../shared/clock.js';
import { maskUrl } from '../../shared/redaction/mask-url.js';
import { LOG_MASK } from '../../shared/redaction/secret-names.js';
import { completeEventRecords, type IndexedProblem } from '../../spec/event-record-input.js';
import { bodyLimitBytes, errorDetailsMax, markedValues, schemaMarks, type Spec, type SpecValidator } from '../../spec/index.js';
import { isSchemaNode, type SchemaNode } from '../../spec/schema-branches.js';
import type {
  Blocks, BlocksCleared, Cleared, ConfigUpdate, ControlOperationId, FaultSpec, IngestCounts, RequestRecord, SessionSummary, Snapshot, StateSummary, TargetOperationId,
} from '../../spec/control-types.js';
import type { ApiErrorBody, BlockedRequest, ErrorDetail, EventLogRecord } from '../../spec/types.js';
import type { JournalFilter, JournalRecord } from '../../store/request-journal.js';
import type { ControlMessage } from '../error-answers.js';
import type { FakeHandle, IngestCountsBoard } from '../build.js';
import { rangeProblem } from '../options.js';
import { registerOperations, type OperationRoutes, type RouteHandler, type RouteReport } from '../routes.js';
import { restoreSnapshot, snapshotProblems, takeSnapshot } from './snapshot.js';

// The control API (/__control) from its document, like the monitoring API: the handlers by
// operationId, and the request journal as it shows it.

/** What the control API's handlers work on: the whole state of the fake (as its handle shows it). */
export type ControlContext = Pick<FakeHandle, 'state' | 'config' | 'faults' | 'journal' | 'errors' | 'spec'> & {
  /** The texts of the control API's own refusals, from its document (`x-messages` of its responses, by code). */
  readonly controlMessages: ControlMessage;
  readonly clock: Clock;
  /** The validator of the monitoring API's document: records are checked against it, journal answers masked by its `x-secret` marks. */
  readonly validator: SpecValidator;
  /** Ids for records added without one. */
  readonly nextRecordId: (timestampMs: number) => string;
  /** The counts of the SNMP listener and the MQTT broker, as whatever started them attached them. */
  readonly ingest: Pick<IngestCountsBoard, 'read'>;
};

/** What an answer lists of the problems of a body (100,000 bad records hold as many): the first the document's Error allows. */
export const listedDetails = (spec: Spec, details: readonly ErrorDetail[]): ErrorDetail[] => details.slice(0, errorDetailsMax(spec.document));

/** The problems of a list of records as the Error body's details, each by `/<index><field>`. */
export function recordDetails(problems: readonly IndexedProblem[]): ErrorDetail[] {
  return problems.map(({ index, pointer, problem }) => ({ location: 'body', name: `/${index}${pointer}`, problem }));
}

/** 400 INVALID_BODY for problems the document's schema cannot state: the first and their count in the message, the first few in `details`. */
export function invalidBody({ errors, controlMessages: messages, spec }: { errors: ErrorFactory; controlMessages: ControlMessage; spec: Spec }, details: readonly ErrorDetail[]): ApiError {
  const first = details[0] as ErrorDetail;
  const listed = listedDetails(spec, details);
  const values = { name: first.name ?? '', problem: first.problem, count: String(details.length), listed: String(listed.length) };
  const name = details.length === 1 ? 'schemaProblem' : details.length > listed.length ? 'schemaProblemsListed' : 'schemaProblems';
  return errors('INVALID_BODY', messages('INVALID_BODY', name, values), { details: listed });
}

/** How much the state holds. */
export function summarize({ state, faults }: ControlContext): StateSummary {
  const users = state.users.list();
  return {
    users: users.length,
    tokens: users.filter((u) => state.tokens.tokenOf(u.id) !== undefined).length,
    sessions: state.sessions.size,
    eventLogRecords: state.data.events.size,
    blockLogRecords: state.data.blocks.size,
    activeBlocks: state.data.limiter.activeBlocks().length,
    faults: faults.size,
  };
}

/** The document's mark of a credential, on a schema or a property. */
const SECRET = 'x-secret';
// Deeper than any answer of this API: a value nested further under a schema is masked whole.
const MAX_DEPTH = 32;

type Container = Record<string | number, unknown>;

/**
 * A body just parsed from the journal's text, masked in place: each marked place, and each place too
 * deep to judge, reads `[redacted]` (the walk has left a place it yields, so it never sees the mask).
 */
function masked(body: unknown, schema: SchemaNode): unknown {
  for (const { path } of markedValues(body, schema, { mark: SECRET, maxDepth: MAX_DEPTH })) {
    if (path.length === 0) return LOG_MASK;
    let parent = body as Container;
    for (const key of path.slice(0, -1)) parent = parent[key] as Container;
    parent[path.at(-1)!] = LOG_MASK;
  }
  return body;
}

type ResponseBodyFields = Pick<RequestRecord, 'error' | 'responseBody' | 'responseText' | 'responseBodyTruncated' | 'responseBodyDropped'>;

const isErrorBody = (body: unknown): body is ApiErrorBody => typeof body === 'object' && body !== null && typeof (body as ApiErrorBody).code === 'string';

/**
 * An answer's body as the control API shows it: an error answer's Error body parsed; a successful
 * answer's parsed, with the values the document marks `x-secret` masked; the head of a long body,
 * and a text that is not JSON, as text, unless the answer's schema holds a secret (then it is not
 * shown: nothing there can be masked).
 */
function responseBodyOf(record: JournalRecord, validator: SpecValidator): ResponseBodyFields {
  if (record.bodyCut === 'dropped') return { responseBodyDropped: true };
  const text = record.body?.toString();
  if (!text) return {};
  const truncated: ResponseBodyFields = record.bodyCut === 'head' ? { responseBodyTruncated: true } : {};
  // The schema of the operation's JSON answer of this status, if it has one.
  const found = record.operationId === undefined ? undefined : validator.responseFor(record.operationId, record.status)?.content?.['application/json']?.schema;
  const schema = isSchemaNode(found) ? found : undefined;
  try {
    const body: unknown = JSON.parse(text);
    if (record.status >= 400) return isErrorBody(body) ? { error: body } : {};
    return { responseBody: schema === undefined ? body : masked(body, schema), ...truncated };
  } catch {
    return schema !== undefined && schemaMarks(schema, SECRET) ? truncated : { responseText: text, ...truncated };
  }
}

/** A journal record as the control API shows it: its URL masked as the logs mask it, its body as responseBodyOf shows it. */
export function journalEntry(record: JournalRecord, validator: SpecValidator): RequestRecord {
  const { authMethod, userId, login = '' } = record;
  return {
    id: record.id,
    time: record.time,
    method: record.method,
    url: maskUrl(record.rawUrl, LOG_MASK),
    // Fields left undefined are left out of the answer's JSON.
    operationId: record.operationId,
    auth: authMethod === undefined || userId === undefined ? undefined : { method: authMethod, userId, login },
    origin: record.origin,
    status: record.status,
    durationMs: Math.round(record.durationMs * 10) / 10,
    ...responseBodyOf(record, validator),
  };
}

/** What the schema cannot say of a fault: a range the wrong way round, fields that do not go together. */
function faultProblems(spec: FaultSpec): ErrorDetail[] {
  const details = rangeProblem(spec.delayMs, '/delayMs');
  const problem = (name: string, text: string) => details.push({ location: 'body', name, problem: text });
  if (spec.body !== undefined && spec.status !== undefined && spec.status !== spec.body.status) problem('/status', `must be the status of body (${spec.body.status}), or left out`);
  if (spec.action !== undefined && spec.action !== 'error') {
    for (const field of ['status', 'message', 'body'] as const) if (spec[field] !== undefined) problem(`/${field}`, `is for action "error" only, not "${spec.action}"`);
  }
  return details;
}

/** Completes each record (`_id`, `timestamp`) and checks them all, and when `adding` that no `_id` given is stored; throws INVALID_BODY naming every problem. */
function checkedRecords(body: unknown, context: ControlContext, adding = false): EventLogRecord[] {
  const { errors, controlMessages: messages, clock, validator, nextRecordId, state } = context;
  const now = clock.now();
  const given = body as { _id?: unknown }[];
  const { records, problems } = completeEventRecords(given, { now: () => now, nextId: nextRecordId }, validator);
  const stored = adding ? records.flatMap((record, index) => (given[index]?._id !== undefined && state.data.events.get(record._id) ? [{ index, pointer: '/_id', problem: 'already exists' }] : [])) : [];
  if (stored.length > 0) {
    const id = String(records[stored[0]!.index]?._id);
    throw errors('INVALID_BODY', messages('INVALID_BODY', 'idExists', { id }), { details: listedDetails(context.spec, recordDetails([...stored, ...problems])) });
  }
  if (problems.length > 0) throw invalidBody(context, recordDetails(problems));
  return records;
}

const controlHandlers: Partial<Record<ControlOperationId, RouteHandler<ControlContext>>> = {
  /** Back to the seed; the start-up configuration too unless `keepConfig`, the sessions unless `keepSessions`. Faults go either way. */
  resetState: (request, _reply, context) => {
    const { keepConfig = false, keepSessions = false } = request.query as { keepConfig?: boolean; keepSessions?: boolean };
    context.state.reset({ keepSessions });
    context.faults.clear();
    if (keepConfig) context.state.data.limiter.setRules(context.config.current.rateLimit); // the seed's reset restored the start-up rules
    else context.config.reset();
    return summarize(context);
  },

  exportSnapshot: (_request, _reply, context) => takeSnapshot(context),

  importSnapshot: (request, _reply, context) => {
    const snapshot = request.body as Snapshot;
    const details = snapshotProblems(snapshot, context);
    if (details.length > 0) {
      const first = details[0]!;
      throw context.errors('INVALID_BODY', context.controlMessages('INVALID_BODY', 'snapshotUnusable', { name: first.name ?? '', problem: first.problem }), { details: listedDetails(context.spec, details) });
    }
    restoreSnapshot(snapshot, context);
    return summarize(context);
  },

  listSessions: (_request, _reply, { state }): SessionSummary[] =>
    state.sessions.list().map((session) => ({
      // Enough of a session id to tell sessions apart, useless as a cookie.
      maskedId: `${session.id.slice(0, 8)}…`,
      userId: session.userId,
      login: state.users.byId(session.userId)?.login ?? '',
      createdAt: session.createdAt,
      lastUsedAt: session.lastSeen,
      expiresAt: state.sessions.expiresAt(session),
    })),

  clearSessions: (request, _reply, { state }): Cleared => {
    const { userId } = request.query as { userId?: string };
    return { cleared: state.sessions.clear(userId) };
  },

  getConfig: (_request, _reply, { config }) => config.get(),
  updateConfig: (request, _reply, context) => {
    const { config } = context;
    const update = request.body as ConfigUpdate;
    const details = Object.entries(update.operationLatencyMs ?? {}).flatMap(([operationId, latency]) => rangeProblem(latency, `/operationLatencyMs/${operationId}`));
    if (details.length > 0) throw invalidBody(context, details);
    return config.update(update);
  },

  listFaults: (_request, _reply, { faults }) => faults.list(),
  injectFault: (request, _reply, context) => {
    const { faults, errors, controlMessages: messages } = context;
    const spec = request.body as FaultSpec;
    const details = faultProblems(spec);
    if (details.length > 0) throw invalidBody(context, details);
    if (faults.size >= faults.capacity) throw errors('INVALID_BODY', messages('INVALID_BODY', 'faultsFull', { capacity: String(faults.capacity) }));
    return faults.inject(spec);
  },
  clearFaults: (request, _reply, { faults }): Cleared => {
    const { operationId } = request.query as { operationId?: TargetOperationId };
    return { cleared: faults.clear(operationId) };
  },
  deleteFault: (request, _reply, { faults, errors, controlMessages: messages }) => {
    const { faultId } = request.params as { faultId: string };
    if (!faults.delete(faultId)) throw errors('NOT_FOUND', messages('NOT_FOUND', 'fault', { id: faultId }));
  },

  /** All or nothing: every record is checked before any is stored. */
  addEventLogRecords: (request, _reply, context) => context.state.data.events.addAll(checkedRecords(request.body, context, true)),

  replaceEventLog: (request, _reply, context) => {
    const records = checkedRecords(request.body, context);
    context.state.data.events.restore(records);
    return records.map((record) => context.state.data.events.get(record._id));
  },

  clearEventLog: (_request, _reply, { state }): Cleared => {
    const cleared = state.data.events.size;
    state.data.events.restore([]);
    return { cleared };
  },

  listBlocks: (_request, _reply, { state }): Blocks => ({
    active: state.data.limiter.activeBlocks(),
    log: state.data.blocks.query({}),
  }),

  clearBlocks: (request, _reply, { state }): BlocksCleared => {
    const { scope = 'all' } = request.query as { scope?: 'active' | 'log' | 'all' };
    const cleared: BlocksCleared = { active: 0, log: 0 };
    if (scope !== 'log') cleared.active = state.data.limiter.clear();
    if (scope !== 'active') cleared.log = state.data.blocks.clear();
    return cleared;
  },

  /** The body is checked whole by the document before this runs, so the log changes all at once or not at all. */
  replaceBlockLog: (request, _reply, { state }): BlockedRequest[] => {
    state.data.blocks.restore(request.body as BlockedRequest[]);
    return state.data.blocks.query({});
  },

  clearBlockLog: (_request, _reply, { state }): Cleared => ({ cleared: state.data.blocks.clear() }),

  listRequests: (request, _reply, { journal, validator }): RequestRecord[] =>
    journal.list(request.query as JournalFilter).map((record) => journalEntry(record, validator)),
  clearRequests: (_request, _reply, { journal }): Cleared => ({ cleared: journal.clear() }),

  getIngestCounts: (_request, _reply, { ingest }): IngestCounts => ingest.read(),
};

/** The control API's routes, from its document by operationId; who may call them is the Host and Origin guard's control rule. */
export function registerControlApi(app: FastifyInstance, controlSpec: Spec, context: ControlContext, invalid: OperationRoutes<unknown>['invalid']): RouteReport {
  return registerOperations(app, {
    spec: controlSpec,
    handlers: controlHandlers,
    context,
    // Snapshots are large: the control document allows larger bodies than the API's.
    bodyLimit: bodyLimitBytes(controlSpec.document),
    surface: 'control',
    invalid,
  });
}
