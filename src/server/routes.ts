import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Operation } from '../spec/index.js';
import type { GuardDependencies } from './auth/guard.js';
import { createGuard } from './auth/guard.js';
import type { HandlerContext, HandlerMap, OperationHandler } from './handlers/types.js';
import type { RateLimitHooks } from './rate-limit.js';
import { createRequestValidators, requestSchemas } from './request-schemas.js';

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
 * Bodies are written with JSON.stringify, not with fast-json-stringify and the document's
 * response schemas: fast-json-stringify drops properties a schema does not list (the User
 * schema allows more), throws on a value that matches no `oneOf` branch (a 500 instead of
 * what the store holds) and warns on the `anyOf` of formats in SnmpTrapPayload. Responses
 * are checked against the document by the tests instead.
 */
function send(reply: FastifyReply, success: { status: number; hasBody: boolean }, body: unknown) {
  reply.code(success.status);
  if (!success.hasBody) return reply.send();
  return reply.type('application/json; charset=utf-8').send(JSON.stringify(body));
}

export interface RouteReport {
  /** operationIds that got a route. */
  readonly registered: readonly string[];
  /** operationIds of the document without a handler: no route is registered for them. */
  readonly missingHandlers: readonly string[];
}

/**
 * One route per operation of the document that has a handler: path and method from the
 * document, the guard from its `security` and `x-permissions`, validation from its
 * parameters and body, and the success status from its responses.
 */
export function registerOperations(
  app: FastifyInstance,
  operations: readonly Operation[],
  handlers: HandlerMap,
  context: HandlerContext,
  guardDependencies: GuardDependencies,
  limits?: RateLimitHooks,
): RouteReport {
  const compilerFor = createRequestValidators(context.spec.document);
  const registered: string[] = [];
  const missingHandlers: string[] = [];
  for (const operation of operations) {
    const handler = handlers[operation.operationId as keyof HandlerMap] as OperationHandler | undefined;
    if (!handler) {
      missingHandlers.push(operation.operationId);
      continue;
    }
    const success = successOf(operation);
    const guard = createGuard(operation, guardDependencies);
    app.route({
      method: operation.method.toUpperCase(),
      url: fastifyPath(operation.path),
      schema: requestSchemas(operation),
      validatorCompiler: compilerFor(operation),
      config: { operationId: operation.operationId },
      // Limits by IP first, then the guard (401, 403), then limits by the caller's identity.
      onRequest: [limits?.beforeAuth, guard, limits?.afterAuth].filter((h) => h !== undefined),
      preHandler: limits ? [limits.beforeHandler] : [],
      handler: async (request, reply) => {
        const body = await handler(request, reply, context);
        return reply.sent ? reply : send(reply, success, body);
      },
    });
    registered.push(operation.operationId);
  }
  return { registered, missingHandlers };
}
