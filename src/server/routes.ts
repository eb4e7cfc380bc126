import type { FastifyContextConfig, FastifyInstance, FastifyReply, FastifyRequest, FastifySchema, FastifySchemaCompiler, onRequestHookHandler, preHandlerHookHandler } from 'fastify';
import type { ValidateFunction } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { AjvChoices } from '../spec/ajv.js';
import { createAjv, createSpecValidator, schemaProblems, type Document, type Operation, type ProblemWords, type Schema, type Spec, type VerboseError } from '../spec/index.js';
import { createGuard, sessionCookieName, type Scheme } from './auth.js';
import { jsonText, pageStream } from './body.js';
import type { RequestPart, ValidationRefusal } from './error-answers.js';
import { builtInHandlers, type HandlerContext } from './handlers.js';
import type { HostOriginGuard } from './host-origin-guard.js';
import type { RuntimeConfig } from './options.js';
import { createFaultCheck, createPreferCheck, createRateLimitChecks } from './route-checks.js';
import type { FaultStore } from '../store/state.js';

// Routes from the documents: one per operation, its request schemas and validators, its checks, its handler.

/** A check before the handler: it throws the answer's ApiError, or returns it where a flood is refused (a throw costs more). */
export type RequestCheck = (request: FastifyRequest) => Error | void;

/** The checks of one route as a single hook that calls them in order. */
function checksHook(checks: readonly RequestCheck[]): onRequestHookHandler & preHandlerHookHandler {
  return function runChecks(request, _reply, done) {
    let refusal: Error | void = undefined;
    try {
      for (const check of checks) if ((refusal = check(request)) !== undefined) break;
    } catch (error) {
      refusal = error as Error;
    }
    done(refusal ?? undefined);
  };
}

const isPromise = (value: unknown): value is Promise<unknown> => typeof (value as { then?: unknown } | null)?.then === 'function';

/** OpenAPI `{id}` → Fastify `:id`. */
export function fastifyPath(template: string): string {
  return template.replace(/\{([^}/]+)\}/g, ':$1');
}

/** The operation's success response in the document: its status and whether it has a JSON body. */
function successOf(operation: Operation): { status: number; hasBody: boolean } {
  const entry = Object.entries(operation.responses).find(([status]) => /^2\d\d$/.test(status));
  if (!entry) throw new Error(`${operation.operationId} documents no 2xx response.`);
  return { status: Number(entry[0]), hasBody: entry[1].content?.['application/json'] !== undefined };
}

/**
 * Bodies are written with JSON.stringify, not fast-json-stringify: it drops properties a schema
 * does not list (User allows more) and throws on a value no `oneOf` branch takes.
 */
function send(reply: FastifyReply, success: { status: number; hasBody: boolean }, body: unknown, streamPagesOver: number) {
  reply.code(success.status);
  if (!success.hasBody) return reply.send();
  reply.type('application/json; charset=utf-8');
  // A long page (a query without `limit`) as a stream of its text.
  const payload = Array.isArray(body) && body.length > streamPagesOver ? pageStream(body) : jsonText(body);
  // Fastify knows bytes by `payload.buffer instanceof ArrayBuffer`, the global one. Vitest's jsdom
  // environment puts jsdom's ArrayBuffer there, and a Buffer would be serialized as JSON
  // (`{"type":"Buffer",…}`): a fake in a jsdom test (with MSW) sends its bytes as they are.
  if (Buffer.isBuffer(payload) && !(payload.buffer instanceof ArrayBuffer)) reply.serializer(bytesAsTheyAre);
  return reply.send(payload);
}

const bytesAsTheyAre = (payload: unknown) => payload as string;

export interface RouteReport {
  /** operationIds that got a route. */
  readonly registered: readonly string[];
  /** operationIds of the document without a handler: no route is registered for them. */
  readonly missingHandlers: readonly string[];
}

/** The handler of one operation, given a context of type C (see OperationHandler in handlers.ts). */
export type RouteHandler<C> = (request: FastifyRequest, reply: FastifyReply, context: C) => unknown;

/** One document's operations to serve. */
export interface OperationRoutes<C> {
  /** The loaded document: its operations, and the schemas their validators compile. */
  readonly spec: Spec;
  /** Handlers keyed by operationId; operations without one get no route. */
  readonly handlers: Readonly<Partial<Record<string, RouteHandler<C>>>>;
  readonly context: C;
  /** The checks of one operation right after routing, e.g. the guard its `security` asks for. */
  readonly onRequest?: (operation: Operation) => readonly RequestCheck[];
  /** The checks of one operation that need the parsed body. */
  readonly preHandler?: (operation: Operation) => readonly RequestCheck[];
  /** The largest request body accepted, in bytes (default: the server's). */
  readonly bodyLimit?: number;
  /** Which API the routes belong to, in each route's config: the monitoring API (`/node/api`) or the fake's control API (`/__control`). */
  readonly surface: NonNullable<FastifyContextConfig['surface']>;
  /** Answers that are arrays of more items than this (long pages) are streamed; default never. */
  readonly streamPagesOver?: number;
  /** How a request that does not match the document is refused, and how many of its problems are listed. */
  readonly invalid: { readonly refuse: ValidationRefusal; readonly listed: number };
}

/** One route per operation of the document that has a handler: path, method, validation and success status from the document. */
export function registerOperations<C>(app: FastifyInstance, routes: OperationRoutes<C>): RouteReport {
  const { spec, handlers, context } = routes;
  const compilerFor = createRequestValidators(spec, routes.invalid.refuse, routes.invalid.listed);
  const streamPagesOver = routes.streamPagesOver ?? Infinity;
  const registered: string[] = [];
  const missingHandlers: string[] = [];
  for (const operation of spec.operations) {
    const handler = handlers[operation.operationId];
    if (!handler) {
      missingHandlers.push(operation.operationId);
      continue;
    }
    const success = successOf(operation);
    const onRequest = routes.onRequest?.(operation) ?? [];
    const preHandler = routes.preHandler?.(operation) ?? [];
    app.route({
      method: operation.method.toUpperCase(),
      url: fastifyPath(operation.path),
      schema: requestSchemas(operation),
      validatorCompiler: compilerFor(operation),
      config: { operationId: operation.operationId, surface: routes.surface },
      ...(onRequest.length > 0 ? { onRequest: checksHook(onRequest) } : {}),
      ...(preHandler.length > 0 ? { preHandler: checksHook(preHandler) } : {}),
      ...(routes.bodyLimit === undefined ? {} : { bodyLimit: routes.bodyLimit }),
      // Not async: most handlers answer at once, and the answer goes out without waiting for a microtask.
      handler: (request, reply) => {
        const result = handler(request, reply, context);
        const answer = (body: unknown) => (reply.sent ? reply : send(reply, success, body, streamPagesOver));
        return isPromise(result) ? result.then(answer) : answer(result);
      },
    });
    registered.push(operation.operationId);
  }
  return { registered, missingHandlers };
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The operationId of the document operation the route serves. */
    operationId?: string;
    /** Which API the route belongs to: what the router matched, however the path was spelled. */
    surface?: 'api' | 'control';
  }
}

const PARTS = { path: 'params', query: 'querystring', header: 'headers' } as const;

/** The Fastify route schema of an operation; unknown query parameters and headers are allowed (credentials travel in them). */
export function requestSchemas(operation: Operation): FastifySchema {
  const schema: Record<string, Schema> = {};
  for (const [location, part] of Object.entries(PARTS)) {
    const parameters = operation.parameters.filter((p) => p.in === location);
    if (parameters.length === 0) continue;
    const name = (n: string) => (location === 'header' ? n.toLowerCase() : n);
    schema[part] = {
      type: 'object',
      properties: Object.fromEntries(parameters.map((p) => [name(p.name), p.schema])),
      required: parameters.filter((p) => p.required).map((p) => name(p.name)),
    };
  }
  if (operation.requestBody) schema.body = operation.requestBody.schema;
  return schema;
}

// The Ajv instances of one document, so a fake built again reuses its compiled validators.
// Parameters arrive as text, so their Ajv coerces types; a JSON body's does not. `verbose`
// lets a problem say what was sent and what is allowed.
const ajvs = new WeakMap<Document, Record<'parameters' | 'bodyFirst' | 'bodyAll', Ajv2020>>();
function ajvsOf({ document, schemasChecked }: Spec) {
  let found = ajvs.get(document);
  if (!found) {
    const ajv = (options: AjvChoices) => createAjv(document, { ...options, verbose: true, metaSchemaChecked: schemasChecked });
    found = { parameters: ajv({ coerceTypes: true }), bodyFirst: ajv({ allErrors: false }), bodyAll: ajv({}) };
    ajvs.set(document, found);
  }
  return found;
}

/** A body of more values than this is checked up to its first problem only (Ajv without `allErrors`), so its answer stays small. */
export const VALUES_CHECKED_WHOLE = 10_000;

/** Whether a value holds more than `budget` values (itself, items, properties), looking at no more than that many. */
function holdsMoreThan(value: unknown, budget: number): boolean {
  const pending: unknown[] = [value];
  let seen = 0;
  while (pending.length > 0) {
    const next = pending.pop();
    if (++seen > budget) return true;
    if (next !== null && typeof next === 'object') for (const inner of Object.values(next)) pending.push(inner);
  }
  return false;
}

/** A compiled schema: whether a value matches, and the errors of the last call. */
type Check = ((data: unknown) => boolean) & { errors?: unknown };
/** What Fastify takes from a validator: success, or the refusal to answer with. */
type Verdict = true | { error: Error };

/** The problems of the last call of a validator, bounded. */
const problemsOf = (validate: Check, listed: number, words: ProblemWords) => schemaProblems((validate.errors ?? []) as VerboseError[], listed, words);

/**
 * Validators for one document, which answer Fastify with the document's 400 itself. A body is
 * checked up to its first problem; only a refused body of at most VALUES_CHECKED_WHOLE values is
 * checked again for all. The kit's own documents (their schemas compile in npm test) compile a
 * validator on first use, which keeps the start quick; another document's compile at start.
 */
export function createRequestValidators(spec: Spec, refusal: ValidationRefusal, listed: number) {
  const { parameters, bodyFirst, bodyAll } = ajvsOf(spec);
  const compiled = (ajv: Ajv2020, schema: Schema): Check => {
    if (!spec.schemasChecked) return ajv.compile(schema);
    let validate: ValidateFunction | undefined;
    const check: Check = (data) => {
      validate ??= ajv.compile(schema);
      const ok = validate(data) as boolean;
      check.errors = validate.errors;
      return ok;
    };
    return check;
  };
  const words = createSpecValidator(spec).problemWords;
  const missing = { listed: [{ pointer: '/', problem: words('required') }], count: 1 };

  /** The compiler of one operation's route; an absent body (null to Fastify) is an error only when the body is required. */
  return (operation: Operation): FastifySchemaCompiler<FastifySchema> =>
    ({ schema, httpPart }) => {
      const part = httpPart as RequestPart;
      if (part !== 'body') {
        const check = compiled(parameters, schema as Schema);
        return (data: unknown): Verdict => check(data) || { error: refusal(part, problemsOf(check, listed, words), true) };
      }
      const required = operation.requestBody?.required === true;
      const first = compiled(bodyFirst, schema as Schema);
      const all = compiled(bodyAll, schema as Schema);
      return (data: unknown): Verdict => {
        if (data === null || data === undefined) return !required || { error: refusal(part, missing, true) };
        if (first(data)) return true;
        if (holdsMoreThan(data, VALUES_CHECKED_WHOLE)) return { error: refusal(part, problemsOf(first, listed, words), false) };
        all(data);
        return { error: refusal(part, problemsOf(all, listed, words), true) };
      };
    };
}

/** Whether a call of the operation may come without credentials: no `security`, or an empty alternative. */
const allowsAnonymous = (operation: Operation) => operation.security.length === 0 || operation.security.some((r) => Object.keys(r).length === 0);

/** What the monitoring API's routes need besides the handlers' context. */
export interface ApiRouteDependencies extends Omit<HandlerContext, 'cookies' | 'sessionHosts'> {
  readonly schemes: ReadonlyMap<string, Scheme>;
  readonly config: RuntimeConfig;
  readonly faults: FaultStore;
  /** Who may steer the fake (a Prefer header), and where sessions were created. */
  readonly guard: HostOriginGuard;
  readonly invalid: OperationRoutes<unknown>['invalid'];
  /** The most a `Prefer: latency=` may ask for (the control document's largest latency). */
  readonly maxLatencyMs: number;
}

/** The monitoring API's routes: one per operation that has a handler (built in, or the `handlers` option's), with its checks. */
export function registerApiRoutes(app: FastifyInstance, deps: ApiRouteDependencies): RouteReport {
  const { state, errors, messages, options, faults, guard: { steers, sessionHosts } } = deps;
  // The handlers' context, and the guard's dependencies.
  const context = { ...deps, cookies: { session: sessionCookieName(deps.schemes), csrf: 'csrf' }, sessionHosts };
  const limits = createRateLimitChecks(state, errors, messages);
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
      const guard = createGuard(operation, context);
      const faulted = createFaultCheck(faults, operation, options.random);
      const checks = options.honourPrefer ? [createPreferCheck(operation, { errors, messages, heard: steers, maxLatencyMs: deps.maxLatencyMs }), faulted, limits.beforeAuth] : [faulted, limits.beforeAuth];
      return guard ? [...checks, guard, limits.afterAuth] : checks;
    },
    // A log-in body counts where a call may come without credentials (the log-in itself).
    preHandler: (operation) => (allowsAnonymous(operation) ? [limits.bodyLogin] : []),
  });
}
