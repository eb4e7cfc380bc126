import type { OpenAPIV3_1 } from 'openapi-types';

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';
const METHODS: readonly HttpMethod[] = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

export type Parameter = OpenAPIV3_1.ParameterObject & { schema: OpenAPIV3_1.SchemaObject };
export type Schema = OpenAPIV3_1.SchemaObject;
export type Response = OpenAPIV3_1.ResponseObject;
/** One alternative of an operation's `security`: all the named schemes together. */
export type SecurityRequirement = Record<string, string[]>;

/** One operation of the document, flattened (path-level parameters merged in, `$ref`s resolved). */
export interface Operation {
  readonly operationId: string;
  readonly method: HttpMethod;
  /** The OpenAPI path template, e.g. `/node/api/event-log/{id}/payload`. */
  readonly path: string;
  readonly summary: string;
  readonly parameters: readonly Parameter[];
  /** The JSON schema of the request body, when the operation takes one. */
  readonly requestBody?: { readonly required: boolean; readonly schema: Schema };
  readonly responses: Readonly<Record<string, Response>>;
  /** The alternatives, any one of which authenticates; empty when no authentication is needed. */
  readonly security: readonly SecurityRequirement[];
  /** `x-permissions`: every permission the caller needs. */
  readonly permissions: readonly string[];
  /** `x-spec-section`, absent for operations the source spec does not list. */
  readonly specSection?: string;
  /** `x-extension`: true for operations of real deployments that the source spec does not list. */
  readonly extension: boolean;
  /** `x-gap-fill` of the operation itself, when it has one. */
  readonly gapFill?: string;
  /** The raw operation object, for anything not lifted above. */
  readonly raw: OpenAPIV3_1.OperationObject;
}

type Extended = Record<string, unknown>;

function mergeParameters(pathLevel: unknown[] = [], opLevel: unknown[] = []): Parameter[] {
  const byKey = new Map<string, Parameter>();
  for (const p of [...pathLevel, ...opLevel] as Parameter[]) byKey.set(`${p.in}:${p.name}`, p);
  return [...byKey.values()];
}

/** Lists the operations of a dereferenced document, in document order. */
export function listOperations(document: OpenAPIV3_1.Document): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    if (!item) continue;
    for (const method of METHODS) {
      const op = item[method] as (OpenAPIV3_1.OperationObject & Extended) | undefined;
      if (!op) continue;
      if (!op.operationId) throw new Error(`${method.toUpperCase()} ${path} has no operationId.`);
      const body = op.requestBody as OpenAPIV3_1.RequestBodyObject | undefined;
      const bodySchema = body?.content?.['application/json']?.schema as Schema | undefined;
      operations.push({
        operationId: op.operationId,
        method,
        path,
        summary: op.summary ?? '',
        parameters: mergeParameters(item.parameters, op.parameters),
        requestBody: bodySchema ? { required: body?.required === true, schema: bodySchema } : undefined,
        responses: (op.responses ?? {}) as Record<string, Response>,
        security: (op.security ?? document.security ?? []) as SecurityRequirement[],
        permissions: (op['x-permissions'] as string[] | undefined) ?? [],
        specSection: op['x-spec-section'] as string | undefined,
        extension: op['x-extension'] === true,
        gapFill: op['x-gap-fill'] as string | undefined,
        raw: op,
      });
    }
  }
  return operations;
}

/** The response the document gives an operation for a status: its own, else its class's (`4XX`), else `default`. */
export function documentedResponse(operation: Operation, status: number): Response | undefined {
  const responses = operation.responses;
  return responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
}
