import { createErrorFactory } from '../errors.js';
import { controlApiPath, createSpecValidator, errorDetailsMax, monitoringApiPath } from '../spec/index.js';
import { VALUES_CHECKED_WHOLE } from './request-schemas.js';
import { createValidationRefusal } from './validation-error.js';
import type { FaultSpec } from '../spec/control-types.js';
import { createFaultStore } from '../store/state.js';
import { createRequestJournal } from '../store/request-journal.js';
import { createControlMessages, createErrorMessages } from './error-messages.js';
import { readSchemes } from './auth/schemes.js';
import { registerApiRoutes } from './api-routes.js';
import { installCookies } from './cookies.js';
import { registerControlApi, type ControlContext } from './control/index.js';
import { addHostOriginGuard } from './host-origin-guard.js';
import { registerDocs } from './docs.js';
import { sendApiError } from './error-mapping.js';
import { createFastifyApp } from './fastify-app.js';
import { registerInspector } from './inspector/index.js';
import { createSecretMask } from './journal/secret-mask.js';
import { installBodyParsers } from './json-body.js';
import { createCodedBodyRefusal } from './content-coding.js';
import { addAnswerHook, createEarlyAnswers } from './answer-hook.js';
import { createScriptedAnswers } from './scripted-answer.js';
import { resolveFakeOptions, type FakeOptions } from './options.js';
import { settingsOf } from './rate-limit-presets.js';
import { setApiErrorHandler } from './error-handler.js';
import { createRouteNotFoundHandler } from './route-not-found.js';
import { createRuntimeConfig } from './runtime-config.js';
import { faultDefaults, filterLimitsOf, journalBodyLimits, journalSizeDefault, kitFallback } from './document-defaults.js';
import { createFakeData } from './fake-data.js';
import { createIngestCountsBoard } from './ingest-counts.js';
import { keepTickObjectShape } from './tick-object-shape.js';
import type { FakeApp, FakeWithListenHosts } from './fake-handle.js';

export type { FakeApp, FakeHandle, FakeWithListenHosts } from './fake-handle.js';

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

/** buildFake, for createFake: with the means to answer the host it listens on, as `serve --host` does. */
export async function buildFakeWithListenHosts(options: FakeOptions = {}): Promise<FakeWithListenHosts> {
  keepTickObjectShape();
  const resolved = await resolveFakeOptions(options);
  const { spec, clock, controlSpec } = resolved;
  const validator = createSpecValidator(spec);
  const config = createRuntimeConfig({
    authTokenEnabled: resolved.tokenAuthEnabled,
    requireCsrf: resolved.requireCsrf,
    latencyMs: resolved.latencyMs,
    rateLimit: settingsOf(resolved.rateLimit, controlSpec),
  }, controlSpec);
  const { state, users, seededUsers, reloadFixtures, recordIds, recording } = await createFakeData(resolved, validator, config.rateLimit);
  config.onRateLimitChange((settings) => state.data.limiter.setRules(settings));
  const errors = createErrorFactory(spec.document);
  const schemes = readSchemes(spec.document);
  const { capacity: faultCapacity, ...faultsDefaults } = faultDefaults(controlSpec);
  const faults = createFaultStore({ clock, random: resolved.random, defaults: faultsDefaults, capacity: faultCapacity });
  // Read whether or not the option is given, so that a document without it fails now.
  const journalSize = journalSizeDefault(controlSpec);
  // Every message is looked up here, so a document that lacks one fails now, not on a request.
  const messages = createErrorMessages(spec.document, await kitFallback(spec, monitoringApiPath));
  const controlMessages = createControlMessages(controlSpec.document, await kitFallback(controlSpec, controlApiPath));

  const earlyAnswers = createEarlyAnswers();
  const app = createFastifyApp(resolved.connections, resolved.logger, earlyAnswers, errors, messages);
  // Before any route (the preflight route too), so that each answers errors in the document's shape.
  const scripted = createScriptedAnswers({ sleep: resolved.sleep, hangLimitMs: resolved.connections.idleTimeoutMs, send: sendApiError });
  app.addHook('preClose', (done) => {
    scripted.closeAll();
    done();
  });
  setApiErrorHandler(app, scripted, errors, messages);
  // Every answer: the API's latency, its journal record (answer-hook.ts); its hook times every request from its arrival, so it comes first.
  const journal = createRequestJournal(resolved.journalSize ?? journalSize, journalBodyLimits(controlSpec));
  addAnswerHook(app, { apiPrefix: API_PREFIX, options: resolved, config, journal, earlyAnswers });
  // Every request, before any route's check: who may reach the fake, by Host and Origin (so that
  // a DNS-rebinding page learns and changes nothing), and CORS; then bodies no operation reads.
  const guard = addHostOriginGuard(app, resolved, errors, messages, controlMessages);
  installBodyParsers(app, errors, messages, createCodedBodyRefusal(spec.operations, errors, messages));
  installCookies(app);
  app.decorateRequest('caller', null);

  const filterLimits = await filterLimitsOf(spec);
  // A request that does not match the document: its first problems and their count (validation-error.ts).
  const invalid = { refuse: createValidationRefusal(errors, messages, VALUES_CHECKED_WHOLE), listed: errorDetailsMax(spec.document) };
  const report = registerApiRoutes(app, {
    state, errors, messages, spec, filterLimits, clock, options: resolved, schemes, config, faults, guard, invalid,
  });
  const ingest = createIngestCountsBoard();
  const controlContext: ControlContext = {
    state, config, faults, journal, secretMask: createSecretMask(validator), errors, messages, controlMessages, clock, spec, validator, nextRecordId: recordIds, ingest,
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

export type { FaultSpec };
