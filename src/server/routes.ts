import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler, preHandlerHookHandler } from 'fastify';
import type { Operation, Spec } from '../spec/index.js';
import { createJsonText, type JsonText } from './json-text.js';
import { pageStream } from './page-stream.js';
import { createRequestValidators, requestSchemas } from './request-schemas.js';
import type { ValidationRefusal } from './validation-error.js';

/**
 * A check a request must pass before its handler (fault injection, rate limits, the guard):
 * it returns nothing, or throws an ApiError that becomes the answer. A check that refuses
 * floods (the rate limits) returns its error instead: a throw costs more than the rest of
 * such a refusal.
 */
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
 * Bodies are written with JSON.stringify (through a cache of the text of immutable records,
 * see json-text.ts), not with fast-json-stringify and the document's response schemas:
 * fast-json-stringify drops properties a schema does not list (the User schema allows more),
 * throws on a value that matches no `oneOf` branch (a 500 instead of what the store holds)
 * and warns on the `anyOf` of formats in SnmpTrapPayload. Responses are checked against the
 * document by the tests instead.
 */
function send(reply: FastifyReply, success: { status: number; hasBody: boolean }, body: unknown, text: (reply: FastifyReply, body: unknown) => unknown) {
  reply.code(success.status);
  if (!success.hasBody) return reply.send();
  reply.type('application/json; charset=utf-8');
  const payload = text(reply, body);
  // Fastify knows bytes by `payload.buffer instanceof ArrayBuffer`, the global one. Vitest's jsdom
  // environment puts jsdom's ArrayBuffer there, and a Buffer would be serialized as JSON
  // (`{"type":"Buffer",…}`): a fake in a jsdom test (with MSW) sends its bytes as they are.
  if (Buffer.isBuffer(payload) && !(payload.buffer instanceof ArrayBuffer)) reply.serializer(bytesAsTheyAre);
  return reply.send(payload);
}

const bytesAsTheyAre = (payload: unknown) => payload as string;

/**
 * The payload of a body: its JSON text, or for a long page (the whole event log of a query
 * without `limit`) a stream of it, written a chunk at a time as the client reads it, in chunked
 * transfer: made at once, a million records were 641 MB of text and about 17 s in which no
 * other request was served. The usual page stays one Buffer.
 */
function bodyText(jsonText: JsonText, streamPagesOver: number) {
  return (_reply: FastifyReply, body: unknown): unknown => {
    if (!Array.isArray(body) || body.length <= streamPagesOver) return jsonText(body);
    return pageStream(body, jsonText.item);
  };
}

export interface RouteReport {
  /** operationIds that got a route. */
  readonly registered: readonly string[];
  /** operationIds of the document without a handler: no route is registered for them. */
  readonly missingHandlers: readonly string[];
}

/** The handler of one operation, given a context of type C (see handlers/types.ts for the contract). */
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
  /** Which API the routes belong to, in each route's config (hooks shared by all routes tell them apart by it). */
  readonly surface: RouteSurface;
  /** Answers that are arrays of more items than this (long pages) are streamed (page-stream.ts); default never. */
  readonly streamPagesOver?: number;
  /** How a request that does not match the document is refused, and how many of its problems are listed. */
  readonly invalid: RequestRefusal;
}

export interface RequestRefusal {
  readonly refuse: ValidationRefusal;
  readonly listed: number;
}

/** The monitoring API (`/node/api`) or the fake's control API (`/__control`). */
export type RouteSurface = 'api' | 'control';

/**
 * One route per operation of the document that has a handler: path and method from the
 * document, validation from its parameters and body, the success status from its
 * responses, and the operationId in the route's config (for hooks such as fault injection).
 */
export function registerOperations<C>(app: FastifyInstance, routes: OperationRoutes<C>): RouteReport {
  const { spec, handlers, context } = routes;
  const compilerFor = createRequestValidators(spec, routes.invalid.refuse, routes.invalid.listed);
  const text = bodyText(createJsonText(), routes.streamPagesOver ?? Infinity);
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
      // Not an async function: most handlers answer at once, and the answer then goes out
      // without waiting for a microtask.
      handler: (request, reply) => {
        const result = handler(request, reply, context);
        const answer = (body: unknown) => (reply.sent ? reply : send(reply, success, body, text));
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
    surface?: RouteSurface;
  }
}
