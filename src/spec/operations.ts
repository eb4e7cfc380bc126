import type { OpenAPIV3_1 } from 'openapi-types';

export type HttpMethod = 'get' | 'put' | 'post' | 'delete' | 'options' | 'head' | 'patch' | 'trace';
const METHODS: readonly HttpMethod[] = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

export type Parameter = OpenAPIV3_1.ParameterObject & { schema: OpenAPIV3_1.SchemaObject };
export type Schema = OpenAPIV3_1.SchemaObject;
export type Response = OpenAPIV3_1.ResponseObject;
/** One alternative of an operation's `security`: all the named schemes together. */
export type SecurityRequirement = Record<string, string[]>;

/** One operation of the document, flattened (path-level parameters merged in, `$ref`s resolved). */
export type Operation = Readonly<ReturnType<typeof listOperations>[number]>;

type Extended = Record<string, unknown>;

/** Lists the operations of a dereferenced document, in document order. */
export function listOperations(document: OpenAPIV3_1.Document) {
  return Object.entries(document.paths ?? {}).flatMap(([path, item]) =>
    METHODS.flatMap((method) => {
      const op = item?.[method] as (OpenAPIV3_1.OperationObject & Extended) | undefined;
      if (!op) return [];
      if (!op.operationId) throw new Error(`${method.toUpperCase()} ${path} has no operationId.`);
      const body = op.requestBody as OpenAPIV3_1.RequestBodyObject | undefined;
      const bodySchema = body?.content?.['application/json']?.schema as Schema | undefined;
      const parameters = [...(item?.parameters ?? []), ...(op.parameters ?? [])] as Parameter[];
      return {
        operationId: op.operationId,
        method,
        /** The OpenAPI path template, e.g. `/node/api/event-log/{id}/payload`. */
        path,
        summary: op.summary ?? '',
        // The path's parameters, each replaced by the operation's of the same place and name.
        parameters: [...new Map(parameters.map((p) => [`${p.in}:${p.name}`, p])).values()] as readonly Parameter[],
        /** The JSON schema of the request body, when the operation takes one. */
        requestBody: bodySchema ? ({ required: body?.required === true, schema: bodySchema } as const) : undefined,
        responses: (op.responses ?? {}) as Readonly<Record<string, Response>>,
        /** The alternatives, any one of which authenticates; empty when no authentication is needed. */
        security: (op.security ?? document.security ?? []) as readonly SecurityRequirement[],
        /** `x-permissions`: every permission the caller needs. */
        permissions: (op['x-permissions'] as readonly string[] | undefined) ?? [],
        /** `x-spec-section`, absent for operations the source spec does not list. */
        specSection: op['x-spec-section'] as string | undefined,
        /** `x-extension`: true for operations of real deployments that the source spec does not list. */
        extension: op['x-extension'] === true,
        /** `x-gap-fill` of the operation itself, when it has one. */
        gapFill: op['x-gap-fill'] as string | undefined,
        /** The raw operation object, for anything not lifted above. */
        raw: op as OpenAPIV3_1.OperationObject,
      };
    }),
  );
}

/** The response the document gives an operation for a status: its own, else its class's (`4XX`), else `default`. */
export function documentedResponse(operation: Operation, status: number): Response | undefined {
  const { responses } = operation;
  return responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
}
