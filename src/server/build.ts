import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { createErrorFactory, type ErrorFactory } from '../errors.js';
import type { RecordingManifest } from '../shared/recording-layout.js';
import type { IngestCounts, IngestSourceRunning } from '../spec/control-types.js';
import { bodyLimitBytes, controlApiPath, createSpecValidator, errorDetailsMax, journalLimits, maxLatencyMs, monitoringApiPath, type Spec } from '../spec/index.js';
import type { FixtureUser } from '../spec/types.js';
import { createRequestJournal, type RequestJournal } from '../store/request-journal.js';
import { createFaultStore, type FakeState, type FaultStore } from '../store/state.js';
import { addAnswerHook } from './answer-hook.js';
import { readSchemes } from './auth.js';
import { installBodyParsers } from './body.js';
import { registerControlApi, type ControlContext } from './control/index.js';
import { registerDocs } from './docs.js';
import {
  createClientErrorHandler, createControlMessages, createErrorMessages, createRouteNotFoundHandler, createValidationRefusal, installTransportRefusals, sendApiError, setApiErrorHandler, toApiError,
} from './error-answers.js';
import { createFakeData } from './fake-data.js';
import { addHostOriginGuard } from './host-origin-guard.js';
import { registerInspector } from './inspector/index.js';
import { loggerSettings } from './logger.js';
import {
  connectionOptions, createRuntimeConfig, faultDefaults, filterLimitsOf, kitFallback, resolveFakeOptions, settingsOf, type FakeOptions, type ResolvedFakeOptions, type RuntimeConfig,
} from './options.js';
import { createScriptedAnswers } from './route-checks.js';
import { registerApiRoutes, VALUES_CHECKED_WHOLE, type RouteReport } from './routes.js';
import { keepTickObjectShape } from './tick-object-shape.js';
/** `a`, `a or b`, `a, b or c`. */
const orList = (words: readonly string[]): string => (words.length < 2 ? words.join('') : `${words.slice(0, -1).join(', ')} or ${words.at(-1)}`);

/** The monitoring API's paths start with this; latency applies to it only. */
export const API_PREFIX = '/node/api';

/**
 * The in-memory fake of the API as a ready Fastify app that does not listen:
 * `app.inject()` in tests, `app.listen()` to serve. Besides the monitoring API it serves
 * the control API (`/__control`), the docs (`/docs`) and CORS for pages on other ports.
 */
export async function buildFake(options: FakeOptions = {}): Promise<FakeApp> {
  return (await buildFakeWithListenHosts(options)).app;
}

/**
 * buildFake, for createFake: with `answerListenHost`, which answers the host the app listens on (unless
 * 0.0.0.0 or ::) as a `controlHosts` name, held apart from the app so that no user of the app widens them.
 */
export async function buildFakeWithListenHosts(options: FakeOptions = {}): Promise<{ app: FakeApp; answerListenHost: (host: string) => void }> {
  keepTickObjectShape();
  const resolved = await resolveFakeOptions(options);
  const { spec, clock, controlSpec } = resolved;
  const validator = createSpecValidator(spec);
  const rateLimit = settingsOf(resolved.rateLimit, controlSpec);
  const { state, users, seededUsers, reloadFixtures, recordIds, recording } = await createFakeData(resolved, validator, rateLimit);
  const startUp = { authTokenEnabled: resolved.tokenAuthEnabled, requireCsrf: resolved.requireCsrf, latencyMs: resolved.latencyMs, rateLimit };
  const config = createRuntimeConfig(startUp, controlSpec, (settings) => state.data.limiter.setRules(settings));
  const errors = createErrorFactory(spec.document);
  const schemes = readSchemes(spec.document);
  const { capacity: faultCapacity, ...faultsDefaults } = faultDefaults(controlSpec);
  const faults = createFaultStore({ clock, random: resolved.random, defaults: faultsDefaults, capacity: faultCapacity });
  // Read whether or not the option is given, so that a document without it fails now.
  const journalLimitsOf = journalLimits(controlSpec.document);
  // Every message is looked up here, so a document that lacks one fails now, not on a request.
  const messages = createErrorMessages(spec.document, await kitFallback(spec, monitoringApiPath));
  const controlMessages = createControlMessages(controlSpec.document, await kitFallback(controlSpec, controlApiPath));

  const app = Fastify({
    ...connectionOptions(resolved.connections),
    clientErrorHandler: createClientErrorHandler(errors, messages),
    ...loggerSettings(resolved.logger),
    bodyLimit: bodyLimitBytes(spec.document),
    // The document lists no HEAD operations; HEAD gets 405 like any other undocumented method.
    exposeHeadRoutes: false,
    frameworkErrors: (error, request, reply) => {
      void sendApiError(reply as unknown as FastifyReply, toApiError(error, request as unknown as FastifyRequest, errors, messages));
    },
  });
  app.server.maxConnections = resolved.connections.maxConnections;
  // Node's own refusals (CONNECT, an unsupported Expect) in the document's shape too.
  installTransportRefusals(app.server, errors, messages);
  // Before any route (the preflight route too), so that each answers errors in the document's shape.
  const scripted = createScriptedAnswers({ sleep: resolved.sleep, hangLimitMs: resolved.connections.idleTimeoutMs, send: sendApiError });
  app.addHook('preClose', async () => scripted.closeAll());
  setApiErrorHandler(app, scripted, errors, messages);
  // Every answer: the API's latency, its journal record (answer-hook.ts); its hook times every request from its arrival, so it comes first.
  const journal = createRequestJournal(resolved.journalSize ?? journalLimitsOf.defaultSize, journalLimitsOf);
  addAnswerHook(app, { apiPrefix: API_PREFIX, options: resolved, config, journal });
  // Every request, before any route's check: who may reach the fake, by Host and Origin (so that
  // a DNS-rebinding page learns and changes nothing), and CORS; then bodies no operation reads.
  const guard = addHostOriginGuard(app, resolved, errors, messages, controlMessages);
  installBodyParsers(app, spec.operations, errors, messages);
  app.decorateRequest('caller', null);

  const filterLimits = await filterLimitsOf(spec);
  // A request that does not match the document: its first problems and their count (validation-error.ts).
  const invalid = { refuse: createValidationRefusal(errors, messages, VALUES_CHECKED_WHOLE), listed: errorDetailsMax(spec.document) };
  const report = registerApiRoutes(app, {
    state, errors, messages, spec, filterLimits, clock, options: resolved, schemes, config, faults, guard, invalid, maxLatencyMs: maxLatencyMs(controlSpec.document),
  });
  const ingest = createIngestCountsBoard();
  const controlContext: ControlContext = {
    state, config, faults, journal, errors, controlMessages, clock, spec, validator, nextRecordId: recordIds, ingest,
  };
  const controlReport = registerControlApi(app, controlSpec, controlContext, invalid);
  registerInspector(app);

  const routed = [
    ...spec.operations.filter((op) => report.registered.includes(op.operationId)),
    ...controlSpec.operations.filter((op) => controlReport.registered.includes(op.operationId)),
  ];
  app.setNotFoundHandler(createRouteNotFoundHandler(routed, errors, messages, { paths: ['/', API_PREFIX, `${API_PREFIX}/`], logins: () => orList(seededUsers().slice(0, 5).map((user) => user.login)) }));
  if (report.missingHandlers.length > 0) {
    app.log.warn({ missingHandlers: report.missingHandlers }, 'operations of the document without a handler get no route');
  }
  if (resolved.docs) {
    // The passwords as the banner shows them, to those who may steer the fake (its control rule).
    registerDocs(app, { api: spec.source, control: controlSpec.source }, { errors, messages }, { users, showPasswords: guard.steers });
  }

  app.decorate('fake', {
    state,
    spec,
    options: resolved,
    // The users of the users file, as last (re)loaded.
    get seededUsers() {
      return seededUsers();
    },
    reloadFixtures,
    errors,
    config,
    faults,
    journal,
    ingest,
    ...report,
    control: { ...controlReport, spec: controlSpec, context: controlContext },
    ...(recording ? { recording: recording.manifest } : {}),
  });
  await app.ready();
  return { app, answerListenHost: guard.listenOn };
}

/** What `app.fake` exposes: the state (for resets), and what the start found. */
export interface FakeHandle extends RouteReport {
  readonly state: FakeState;
  readonly spec: Spec;
  readonly options: ResolvedFakeOptions;
  /** The users of the users fixture, with their passwords (the fake's development credentials). */
  readonly seededUsers: readonly FixtureUser[];
  /** Reads the users and event fixture files again and puts them in place (see FakeState.reloadFixtures); throws, changing nothing, when they have problems. */
  readonly reloadFixtures: () => Promise<void>;
  readonly errors: ErrorFactory;
  /** The configuration that the control API changes at run time. */
  readonly config: RuntimeConfig;
  readonly faults: FaultStore;
  /** The last requests the monitoring API answered (`/__control/requests`). */
  readonly journal: RequestJournal;
  /** Where the SNMP listener and the MQTT broker, started beside the app, are read for `/__control/ingest`. */
  readonly ingest: Pick<IngestCountsBoard, 'attach'>;
  /** The control API's routes (`/__control`). */
  readonly control: RouteReport & { readonly spec: Spec; readonly context: ControlContext };
  /** The manifest of the recording served (`recording` option), if any. */
  readonly recording?: RecordingManifest;
}

declare module 'fastify' {
  interface FastifyInstance {
    fake: FakeHandle;
  }
}

export type FakeApp = FastifyInstance;

/** A source of received records: a key of the control API's `IngestCounts` (`snmp`, `mqtt`). */
export type IngestSource = keyof IngestCounts;

/**
 * Where the control API reads the counts of the SNMP listener and the MQTT broker. Those run
 * beside the app, started by code the server must not import (createFake's record sources), so
 * whatever starts one attaches its reader (its port and counts) here; a source not attached answers as not running.
 */
export type IngestCountsBoard = ReturnType<typeof createIngestCountsBoard>;

function createIngestCountsBoard() {
  const readers = new Map<IngestSource, () => Omit<IngestSourceRunning, 'running'>>();
  const one = (source: IngestSource): IngestCounts[IngestSource] => {
    const read = readers.get(source);
    return read ? { running: true, ...read() } : { running: false };
  };
  return {
    /** Reads `source` with `read` from now on, until the returned function is called. */
    attach(source: IngestSource, read: () => Omit<IngestSourceRunning, 'running'>): () => void {
      readers.set(source, read);
      return () => void (readers.get(source) === read && readers.delete(source));
    },
    read: (): IngestCounts => ({ snmp: one('snmp'), mqtt: one('mqtt') }),
  };
}
