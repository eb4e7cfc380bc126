import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { createErrorFactory, type ErrorFactory } from '../errors.js';
import { loadEventFixtures } from '../seed/event-fixtures.js';
import { createSpecValidator, type Spec } from '../spec/index.js';
import { createState, type FakeState } from '../store/state.js';
import { loadUsersFixture } from '../store/users-fixture.js';
import { readSchemes, sessionCookieName } from './auth/schemes.js';
import { BODY_LIMIT_BYTES, sendApiError, toApiError } from './error-mapping.js';
import { builtInHandlers } from './handlers/index.js';
import type { HandlerContext } from './handlers/types.js';
import { installBodyParsers } from './json-body.js';
import { loggerSettings } from './logging.js';
import { resolveFakeOptions, type FakeOptions, type ResolvedFakeOptions } from './options.js';
import { createRateLimitHooks } from './rate-limit.js';
import { createRouteNotFoundHandler } from './route-not-found.js';
import { registerOperations } from './routes.js';

/** What `app.fake` exposes: the state (for resets), and what the start found. */
export interface FakeHandle {
  readonly state: FakeState;
  readonly spec: Spec;
  readonly options: ResolvedFakeOptions;
  readonly errors: ErrorFactory;
  /** operationIds that have a route. */
  readonly registered: readonly string[];
  /** operationIds of the document without a handler, and so without a route. */
  readonly missingHandlers: readonly string[];
}

declare module 'fastify' {
  interface FastifyInstance {
    fake: FakeHandle;
  }
}

export type FakeApp = FastifyInstance;

/**
 * The in-memory fake of the API as a ready Fastify app that does not listen:
 * `app.inject()` in tests, `app.listen()` to serve.
 */
export async function buildFake(options: FakeOptions = {}): Promise<FakeApp> {
  const resolved = await resolveFakeOptions(options);
  const { spec, clock } = resolved;
  const validator = createSpecValidator(spec);
  const users = await loadUsersFixture(resolved.users, validator);
  const state = createState({
    clock,
    users,
    sessions: resolved.sessions,
    data: {
      seed: resolved.seed,
      count: resolved.records,
      endTime: resolved.endTime,
      fixtures: loadEventFixtures(resolved.eventFixtures, validator),
      rateLimit: resolved.rateLimit,
    },
  });
  const errors = createErrorFactory(spec.document);
  const schemes = readSchemes(spec.document);

  const app = Fastify({
    logger: loggerSettings(resolved.logger),
    bodyLimit: BODY_LIMIT_BYTES,
    // The document lists no HEAD operations; HEAD gets 405 like any other undocumented method.
    exposeHeadRoutes: false,
    frameworkErrors: (error, request, reply) => {
      void sendApiError(reply as unknown as FastifyReply, toApiError(error, request as unknown as FastifyRequest, errors));
    },
  });
  await app.register(cookie);
  app.decorateRequest('caller', null);
  installBodyParsers(app, errors);

  app.setErrorHandler((error, request, reply) => {
    const apiError = toApiError(error, request, errors);
    if (apiError.code === 'INTERNAL_ERROR') request.log.error({ err: error }, 'request failed');
    return sendApiError(reply, apiError);
  });

  const context: HandlerContext = {
    state,
    errors,
    spec,
    clock,
    options: resolved,
    cookies: { session: sessionCookieName(schemes), csrf: 'csrf' },
  };
  const report = registerOperations(app, spec.operations, { ...builtInHandlers, ...resolved.handlers }, context, {
    state,
    errors,
    schemes,
    tokenAuthEnabled: resolved.tokenAuthEnabled,
    requireCsrf: resolved.requireCsrf,
  }, createRateLimitHooks(state, errors));
  const routed = spec.operations.filter((op) => report.registered.includes(op.operationId));
  app.setNotFoundHandler(createRouteNotFoundHandler(routed, errors));
  if (report.missingHandlers.length > 0) {
    app.log.warn({ missingHandlers: report.missingHandlers }, 'operations of the document without a handler get no route');
  }

  app.decorate('fake', { state, spec, options: resolved, errors, ...report });
  await app.ready();
  return app;
}
