import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { createErrorFactory, type ErrorFactory } from '../errors.js';
import { anchorTime, shiftTimestamps } from '../seed/anchor.js';
import { loadRecording } from '../seed/recording.js';
import type { RecordingManifest } from '../shared/recording-layout.js';
import { seedRecords } from '../seed/seed-records.js';
import { controlApiPath, createSpecValidator, filterLimits, loadSpec, monitoringApiPath, type FilterLimits, type Operation, type Spec } from '../spec/index.js';
import type { FaultSpec } from '../spec/control-types.js';
import { warmCaseOrbits } from '../store/char-set.js';
import { createFaultStore, type FaultStore } from '../store/faults.js';
import { createRequestJournal, type RequestJournal } from '../store/request-journal.js';
import { createObjectIdGenerator } from '../shared/object-id.js';
import { createState, type FakeState } from '../store/state.js';
import type { FixtureUser } from '../spec/types.js';
import { checkedByTheKitsTests } from '../seed/kit-fixtures.js';
import { loadFixtures } from '../seed/load-fixtures.js';
import { createGuard } from './auth/guard.js';
import { createControlMessages, createErrorMessages } from './error-messages.js';
import { createSessionHosts } from './auth/session-hosts.js';
import { readSchemes, sessionCookieName } from './auth/schemes.js';
import { CONTROL_PREFIX, registerControlApi, type ControlContext } from './control/index.js';
import { connectionOptions } from './connection-limits.js';
import { addSendTimeout } from './send-timeout.js';
import { createControlAccessCheck } from './control/access.js';
import { isLoopback } from './control/loopback.js';
import { createApiHostCheck } from './api-host-check.js';
import { createListenNames, hostNamesThisServer, hostRule } from './host-names.js';
import { originAllowed, registerCors } from './cors.js';
import { registerDocs } from './docs.js';
import { BODY_LIMIT_BYTES, sendApiError, toApiError } from './error-mapping.js';
import { createFaultCheck } from './fault-check.js';
import { builtInHandlers } from './handlers/index.js';
import type { HandlerContext } from './handlers/types.js';
import { createHostHook } from './host-header.js';
import { INSPECTOR_PATH, registerInspector } from './inspector/index.js';
import { addJournalHooks } from './journal/record-hook.js';
import { createSecretMask } from './journal/secret-mask.js';
import { installBodyParsers } from './json-body.js';
import { addLatencyHooks } from './latency-hook.js';
import { drawLatency } from './latency.js';
import { createPreferCheck, preferredLatency } from './prefer.js';
import { createScriptedAnswers, ScriptedAnswer } from './scripted-answer.js';
import { makeSeedOnceListening } from './seed-making.js';
import { afterFirstAnswer } from './after-first-answer.js';
import { createLogging } from './logging.js';
import { resolveFakeOptions, type FakeOptions, type ResolvedFakeOptions } from './options.js';
import { settingsOf } from './rate-limit-presets.js';
import { createRateLimitChecks } from './rate-limit.js';
import { drainRefusedBody } from './refused-body.js';
import { createRouteNotFoundHandler } from './route-not-found.js';
import { createClientErrorHandler, installTransportRefusals } from './transport-errors.js';
import { keepConnectionsWorkedOn } from './idle-timeout.js';
import { registerOperations, type RouteReport } from './routes.js';
import { createRuntimeConfig, type RuntimeConfig } from './runtime-config.js';

/** What `app.fake` exposes: the state (for resets), and what the start found. */
export interface FakeHandle {
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
  /** operationIds that have a route. */
  readonly registered: readonly string[];
  /** operationIds of the document without a handler, and so without a route. */
  readonly missingHandlers: readonly string[];
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

/** Whether a call of the operation may come without credentials: no `security`, or an empty alternative. */
const allowsAnonymous = (operation: Operation) => operation.security.length === 0 || operation.security.some((r) => Object.keys(r).length === 0);

/** The monitoring API's paths start with this; latency applies to it only. */
export const API_PREFIX = '/node/api';

function faultDefaults(controlSpec: Spec): { status: number; message: string; capacity: number } {
  type Properties = Record<string, { default?: unknown; maxItems?: unknown }>;
  const schemas = controlSpec.document.components?.schemas;
  const properties = (schemas?.FaultSpec as { properties?: Properties })?.properties;
  const status = properties?.status?.default;
  const message = properties?.message?.default;
  if (typeof status !== 'number' || typeof message !== 'string') throw new Error('The control API document gives FaultSpec no defaults.');
  // The most faults in force at once: as many as a snapshot may hold.
  const capacity = (schemas?.Snapshot as { properties?: Properties })?.properties?.faults?.maxItems;
  return { status, message, capacity: typeof capacity === 'number' ? capacity : Infinity };
}

/** The kit's own document at `path`, for what a document given in its place lacks; none when it is the kit's. */
const kitFallback = async (spec: Spec, path: string) => (spec.schemasChecked ? undefined : (await loadSpec(path)).document);

/** The document's filter limits; a document that states none gets the kit's own. */
async function filterLimitsOf(spec: Spec): Promise<FilterLimits> {
  const own = filterLimits(spec.document);
  const kit = own ? undefined : await kitFallback(spec, monitoringApiPath);
  const limits = own ?? (kit && filterLimits(kit));
  if (!limits) throw new Error("The kit's document gives the event log filter no x-filter-limits.");
  return limits;
}

/**
 * The case rules of the filter's regexes take a few hundred ms to read from the engine: read
 * in slices between other work rather than all at once in the first request that needs them,
 * and only once the server has answered its first request (or a second after it was built), so
 * that they never delay start-up.
 */
function warmCaseOrbitsAfterStart(app: FastifyInstance, sliceMs: number): void {
  afterFirstAnswer(app, 1000, () => void warmCaseOrbits(sliceMs));
}

/**
 * The in-memory fake of the API as a ready Fastify app that does not listen:
 * `app.inject()` in tests, `app.listen()` to serve. Besides the monitoring API it serves
 * the control API (`/__control`), the docs (`/docs`) and CORS for pages on other ports.
 */
export async function buildFake(options: FakeOptions = {}): Promise<FakeApp> {
  return (await buildFakeWithListenHosts(options)).app;
}

/** A built fake, and the one way to widen the Host names it answers, held apart from the app so that no user of the app widens them. */
export interface FakeWithListenHosts {
  readonly app: FakeApp;
  /** Answers the host the app was told to listen on (unless 0.0.0.0 or ::) as a `controlHosts` name: createFake's `listen` calls it. */
  readonly answerListenHost: (host: string) => void;
}

/** buildFake, for createFake: with the means to answer the host it listens on, as `serve --host` does. */
export async function buildFakeWithListenHosts(options: FakeOptions = {}): Promise<FakeWithListenHosts> {
  const resolved = await resolveFakeOptions(options);
  const { spec, clock, controlSpec } = resolved;
  const validator = createSpecValidator(spec);
  const checked = (file: string) => checkedByTheKitsTests(file, spec.schemasChecked);
  // Ids of records given without one: fixture records at start-up, then records added by the control API.
  const recordIds = createObjectIdGenerator();
  const fixtures = await loadFixtures({ users: resolved.users, events: resolved.eventFixtures }, validator, { alreadyChecked: checked, completion: { now: () => clock.now(), nextId: recordIds } });
  const { users } = fixtures;
  const config = createRuntimeConfig({
    authTokenEnabled: resolved.tokenAuthEnabled,
    requireCsrf: resolved.requireCsrf,
    latencyMs: resolved.latencyMs,
    rateLimit: settingsOf(resolved.rateLimit, controlSpec),
  }, controlSpec);
  const recording = resolved.recording === undefined ? undefined : loadRecording(resolved.recording, validator);
  const { shift, ...seeded } = seedRecords({
    seed: resolved.seed,
    count: resolved.records,
    users,
    fixtures: fixtures.events,
    ...(recording ? { recording } : {}),
    ...(resolved.anchor === undefined ? {} : { anchor: anchorTime(resolved.anchor, () => clock.now()) }),
  });
  const state = createState({ clock, users, sessions: resolved.sessions, data: { ...seeded, rateLimit: config.rateLimit } });
  let fixtureIds = new Set(fixtures.events.map((r) => r._id));
  let seededUsers = users;
  /** Reads the fixture files again and puts them in place; throws, changing nothing, when they have problems. */
  const reloadFixtures = async (): Promise<void> => {
    const next = await loadFixtures({ users: resolved.users, events: resolved.eventFixtures }, validator, { alreadyChecked: () => false, completion: { now: () => clock.now(), nextId: recordIds } });
    await state.data.events.ready(); // a failed seed refuses the reload, changing nothing
    state.reloadFixtures(next.users, { removed: fixtureIds, added: shiftTimestamps(next.events, shift) });
    fixtureIds = new Set(next.events.map((r) => r._id));
    seededUsers = next.users;
  };
  config.onRateLimitChange((settings) => state.data.limiter.setRules(settings));
  const errors = createErrorFactory(spec.document);
  const schemes = readSchemes(spec.document);
  const { capacity: faultCapacity, ...faultsDefaults } = faultDefaults(controlSpec);
  const faults = createFaultStore({ clock, random: resolved.random, defaults: faultsDefaults, capacity: faultCapacity });
  // Every message is looked up here, so a document that lacks one fails now, not on a request.
  const messages = createErrorMessages(spec.document, await kitFallback(spec, monitoringApiPath));
  // The hosts the server is told to listen on (createFake's listen), answered as the names given.
  const listenNames = createListenNames();
  // The monitoring API's Host rule, one instance for all it guards: its operations and paths,
  // the docs and every CORS preflight. A name that may reach the control API may reach the API;
  // so may any address and *.localhost.
  const apiHost = createApiHostCheck(
    hostRule({ names: resolved.controlHosts, listening: listenNames.names, patterns: ['.localhost', ...resolved.allowedHosts], anyAddress: true }),
    errors,
    messages,
  );

  const logging = createLogging(resolved.logger);
  const app = Fastify({
    ...connectionOptions(resolved.connections),
    clientErrorHandler: createClientErrorHandler(errors, messages),
    ...logging.fastifyOptions,
    bodyLimit: BODY_LIMIT_BYTES,
    // The document lists no HEAD operations; HEAD gets 405 like any other undocumented method.
    exposeHeadRoutes: false,
    frameworkErrors: (error, request, reply) => {
      void sendApiError(reply as unknown as FastifyReply, toApiError(error, request as unknown as FastifyRequest, errors, messages));
    },
  });
  logging.attach(app);
  app.server.maxConnections = resolved.connections.maxConnections;
  // On the root, before any route: every answer (API, control, docs, errors) gets the deadline.
  addSendTimeout(app, resolved.connections.sendTimeoutMs);
  installTransportRefusals(app.server, errors, messages);
  keepConnectionsWorkedOn(app.server);
  // Before any route (the CORS plugin's preflight route too), so that each answers errors in the document's shape.
  const scripted = createScriptedAnswers({ sleep: resolved.sleep, hangLimitMs: resolved.connections.idleTimeoutMs, send: sendApiError });
  app.addHook('preClose', (done) => {
    scripted.closeAll();
    done();
  });
  makeSeedOnceListening(app, state.data.events);
  app.setErrorHandler(async (error, request, reply) => {
    if (error instanceof ScriptedAnswer) return scripted.play(reply, error);
    const apiError = toApiError(error, request, errors, messages);
    if (apiError.code === 'INTERNAL_ERROR') request.log.error({ err: error }, 'request failed');
    if (apiError.code === 'PAYLOAD_TOO_LARGE') await drainRefusedBody(request);
    return sendApiError(reply, apiError);
  });
  app.addHook('onRequest', createHostHook(errors, messages, apiHost));
  await app.register(cookie);
  const allowed = originAllowed(resolved.corsOrigins);
  await registerCors(app, allowed);
  app.decorateRequest('caller', null);
  installBodyParsers(app, errors, messages);

  // A `Prefer: latency=` of the request wins over the configured latency.
  const latencyOf = (operationId: string | undefined, request: FastifyRequest) => preferredLatency.get(request) ?? drawLatency(config.latencyOf(operationId), resolved.random);
  addLatencyHooks(app, latencyOf, resolved.sleep, API_PREFIX);
  // After the latency hook, so that a request's duration includes the latency added to it.
  const journal = createRequestJournal(resolved.journalSize);
  if (journal.capacity > 0) addJournalHooks(app, journal, clock, API_PREFIX);

  const filterLimits = await filterLimitsOf(spec);
  warmCaseOrbitsAfterStart(app, filterLimits.sliceMs);
  const sessionHosts = createSessionHosts(allowed);
  const context: HandlerContext = {
    state,
    errors,
    messages,
    spec,
    filterLimits,
    clock,
    options: resolved,
    cookies: { session: sessionCookieName(schemes), csrf: 'csrf' },
    sessionHosts,
  };
  const guardDependencies = { state, errors, messages, schemes, config, sessionHosts };
  const limits = createRateLimitChecks(state, errors, messages);
  const preferOptions = { errors, originAllowed: allowed, injectedFault: errors('INJECTED_FAULT', messages('INJECTED_FAULT', 'preferredStatus')).toBody() };
  const report = registerOperations(app, {
    spec,
    surface: 'api',
    streamPagesOver: resolved.streamPagesOver,
    ...(logging.watchStreamed ? { watchStreamed: logging.watchStreamed } : {}),
    handlers: { ...builtInHandlers, ...resolved.handlers },
    context,
    // The Host first, so that a DNS-rebinding page learns and changes nothing; then a Prefer
    // header and faults, which answer before any other check could count the call; then limits
    // by IP, then the guard (401, 403), then limits by the caller's identity.
    onRequest: (operation) => {
      const guard = createGuard(operation, guardDependencies);
      const faulted = createFaultCheck(faults, operation.operationId, resolved.random);
      const checks = resolved.honourPrefer ? [apiHost, createPreferCheck(operation, preferOptions), faulted, limits.beforeAuth] : [apiHost, faulted, limits.beforeAuth];
      return guard ? [...checks, guard, limits.afterAuth] : checks;
    },
    // A log-in body counts where a call may come without credentials (the log-in itself).
    preHandler: (operation) => (allowsAnonymous(operation) ? [limits.bodyLogin] : []),
  });
  const controlMessages = createControlMessages(controlSpec.document, await kitFallback(controlSpec, controlApiPath));
  const controlContext: ControlContext = {
    state, config, faults, journal, secretMask: createSecretMask(validator), errors, messages, controlMessages, clock, spec, validator, nextRecordId: recordIds,
  };
  const hostAllowed = hostNamesThisServer(resolved.controlHosts, listenNames.names);
  const controlAccess = createControlAccessCheck({ anyAddress: resolved.controlFromAnyAddress, hostAllowed, originAllowed: allowed }, errors, controlMessages);
  const controlReport = registerControlApi(app, controlSpec, controlContext, controlAccess);
  registerInspector(app, controlAccess);

  const routed = [
    ...spec.operations.filter((op) => report.registered.includes(op.operationId)),
    ...controlSpec.operations.filter((op) => controlReport.registered.includes(op.operationId)),
  ];
  // Any other path no route takes (the API's, and every other spelling) answers only the API's Hosts.
  app.setNotFoundHandler(createRouteNotFoundHandler(routed, errors, messages, [
    { prefix: CONTROL_PREFIX, check: controlAccess },
    { prefix: INSPECTOR_PATH, check: controlAccess },
  ], apiHost));
  if (report.missingHandlers.length > 0) {
    app.log.warn({ missingHandlers: report.missingHandlers }, 'operations of the document without a handler get no route');
  }
  if (resolved.docs) {
    registerDocs(app, { api: spec.source, control: controlSpec.source }, { errors, messages }, apiHost, {
      users,
      // As the banner shows them, to the developer's own machine only (and only by a name of this server).
      showPasswords: (request) => isLoopback(request.socket.remoteAddress) && request.headers.host !== undefined && hostAllowed(request.headers.host),
    });
  }

  app.decorate('fake', {
    state,
    spec,
    options: resolved,
    // The users of the users file, as last (re)loaded.
    get seededUsers() {
      return seededUsers;
    },
    reloadFixtures,
    errors,
    config,
    faults,
    journal,
    ...report,
    control: { ...controlReport, spec: controlSpec, context: controlContext },
    ...(recording ? { recording: recording.manifest } : {}),
  });
  await app.ready();
  return { app, answerListenHost: listenNames.add };
}

export type { FaultSpec };
