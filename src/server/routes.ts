import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler, preHandlerAsyncHookHandler } from 'fastify';
import type { Operation, Spec } from '../spec/index.js';
import { createJsonText, type JsonText } from './json-text.js';
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
 * Bodies are written with JSON.stringify (through a cache of the text of immutable records,
 * see json-text.ts), not with fast-json-stringify and the document's response schemas:
 * fast-json-stringify drops properties a schema does not list (the User schema allows more),
 * throws on a value that matches no `oneOf` branch (a 500 instead of what the store holds)
 * and warns on the `anyOf` of formats in SnmpTrapPayload. Responses are checked against the
 * document by the tests instead.
 */
function send(reply: FastifyReply, success: { status: number; hasBody: boolean }, body: unknown, jsonText: JsonText) {
  reply.code(success.status);
  if (!success.hasBody) return reply.send();
  return reply.type('application/json; charset=utf-8').send(jsonText(body));
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
  /** The onRequest hooks of one operation, e.g. the guard its `security` asks for. */
  readonly onRequest?: (operation: Operation) => readonly onRequestAsyncHookHandler[];
  /** The preHandler hooks of one operation (they see the parsed body). */
  readonly preHandler?: (operation: Operation) => readonly preHandlerAsyncHookHandler[];
  /** The largest request body accepted, in bytes (default: the server's). */
  readonly bodyLimit?: number;
}

/**
 * One route per operation of the document that has a handler: path and method from the
 * document, validation from its parameters and body, the success status from its
 * responses, and the operationId in the route's config (for hooks such as fault injection).
 */
export function registerOperations<C>(app: FastifyInstance, routes: OperationRoutes<C>): RouteReport {
  const { spec, handlers, context } = routes;
  const compilerFor = createRequestValidators(spec.document);
  const jsonText = createJsonText();
  const registered: string[] = [];
  const missingHandlers: string[] = [];
  for (const operation of spec.operations) {
    const handler = handlers[operation.operationId];
    if (!handler) {
      missingHandlers.push(operation.operationId);
      continue;
    }
    const success = successOf(operation);
    app.route({
      method: operation.method.toUpperCase(),
      url: fastifyPath(operation.path),
      schema: requestSchemas(operation),
      validatorCompiler: compilerFor(operation),
      config: { operationId: operation.operationId },
      onRequest: [...(routes.onRequest?.(operation) ?? [])],
      preHandler: [...(routes.preHandler?.(operation) ?? [])],
      ...(routes.bodyLimit === undefined ? {} : { bodyLimit: routes.bodyLimit }),
      handler: async (request, reply) => {
        const body = await handler(request, reply, context);
        return reply.sent ? reply : send(reply, success, body, jsonText);
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
  }
}
