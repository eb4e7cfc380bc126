import type { FastifyInstance } from 'fastify';
import type { Operation } from '../spec/index.js';
import type { FaultStore } from '../store/state.js';
import { createGuard } from './auth/guard.js';
import { sessionCookieName, type Scheme } from './auth/schemes.js';
import { builtInHandlers } from './handlers/index.js';
import type { HandlerContext } from './handlers/types.js';
import { createFaultCheck, createPreferCheck } from './chosen-answers.js';
import { createRateLimitChecks } from './rate-limit.js';
import type { HostOriginGuard } from './host-origin-guard.js';
import { registerOperations, type RequestRefusal, type RouteReport } from './routes.js';
import type { RuntimeConfig } from './runtime-config.js';

/** Whether a call of the operation may come without credentials: no `security`, or an empty alternative. */
const allowsAnonymous = (operation: Operation) => operation.security.length === 0 || operation.security.some((r) => Object.keys(r).length === 0);

/** What the monitoring API's routes need besides the handlers' context. */
export interface ApiRouteDependencies extends Omit<HandlerContext, 'cookies' | 'sessionHosts'> {
  readonly schemes: ReadonlyMap<string, Scheme>;
  readonly config: RuntimeConfig;
  readonly faults: FaultStore;
  /** Who may steer the fake (a Prefer header), and where sessions were created. */
  readonly guard: HostOriginGuard;
  readonly invalid: RequestRefusal;
}

/**
 * The monitoring API's routes: one per operation that has a handler (built in, or the
 * `handlers` option's), each with the checks its operation asks for, in this order.
 */
export function registerApiRoutes(app: FastifyInstance, deps: ApiRouteDependencies): RouteReport {
  const { state, errors, messages, options, config, faults, guard: { steers, sessionHosts }, schemes } = deps;
  const context: HandlerContext = {
    state,
    errors,
    messages,
    spec: deps.spec,
    filterLimits: deps.filterLimits,
    clock: deps.clock,
    options,
    cookies: { session: sessionCookieName(schemes), csrf: 'csrf' },
    sessionHosts,
  };
  const guardDependencies = { state, errors, messages, schemes, config, sessionHosts };
  const limits = createRateLimitChecks(state, errors, messages);
  const preferOptions = { errors, messages, heard: steers, injectedFault: errors('INJECTED_FAULT', messages('INJECTED_FAULT', 'preferredStatus')).toBody() };
  return registerOperations(app, {
    spec: deps.spec,
    surface: 'api',
    streamPagesOver: options.streamPagesOver,
    invalid: deps.invalid,
    handlers: { ...builtInHandlers, ...options.handlers },
    context,
    // After the Host and Origin guard (host-origin-guard.ts): a Prefer header and faults, which
    // answer before any other check could count the call; then limits by IP, then the guard
    // (401, 403), then limits by the caller's identity.
    onRequest: (operation) => {
      const guard = createGuard(operation, guardDependencies);
      const faulted = createFaultCheck(faults, operation, options.random);
      const checks = options.honourPrefer ? [createPreferCheck(operation, preferOptions), faulted, limits.beforeAuth] : [faulted, limits.beforeAuth];
      return guard ? [...checks, guard, limits.afterAuth] : checks;
    },
    // A log-in body counts where a call may come without credentials (the log-in itself).
    preHandler: (operation) => (allowsAnonymous(operation) ? [limits.bodyLogin] : []),
  });
}
