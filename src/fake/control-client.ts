import type { FastifyInstance } from 'fastify';
import type { Spec } from '../spec/index.js';
import type { ControlOperationId, controlOperations } from '../spec/control-types.js';
import type { ApiErrorBody } from '../spec/types.js';

type Operation<Op extends ControlOperationId> = controlOperations[Op];
type JsonOf<T> = T extends { content: { 'application/json': infer B } } ? B : undefined;
/** The body of the operation's success answer (its one 2xx; undefined when it has none). */
export type ControlResult<Op extends ControlOperationId> = {
  [S in keyof Operation<Op>['responses']]: S extends 200 | 201 | 204 ? JsonOf<Operation<Op>['responses'][S]> : never;
}[keyof Operation<Op>['responses']];
type Query<Op extends ControlOperationId> = Operation<Op>['parameters'] extends { query?: infer Q } ? Q : never;
type Path<Op extends ControlOperationId> = Operation<Op>['parameters'] extends { path: infer P } ? P : never;
type RequestBody<Op extends ControlOperationId> = Operation<Op> extends { requestBody: infer B } ? JsonOf<B> : never;

export interface ControlRequest<Op extends ControlOperationId> {
  readonly query?: Query<Op>;
  readonly path?: Path<Op>;
  readonly body?: RequestBody<Op>;
}

/** A control API call that was refused; `body` is the monitoring API's Error body. */
export class ControlApiError extends Error {
  override readonly name = 'ControlApiError';
  constructor(
    readonly operationId: ControlOperationId,
    readonly status: number,
    readonly body: ApiErrorBody,
  ) {
    super(`${operationId} failed with ${status} ${body.code}: ${body.message}`);
  }
}

export type ControlCall = <Op extends ControlOperationId>(operationId: Op, request?: ControlRequest<Op>) => Promise<ControlResult<Op>>;

/**
 * Calls control operations in-process through `app.inject`, so every call is validated and
 * answered exactly as over HTTP; typed by the control API document's generated types.
 */
export function controlClient(app: FastifyInstance, controlSpec: Spec): ControlCall {
  return async (operationId, request = {}) => {
    const op = controlSpec.operation(operationId);
    const path = request.path as Record<string, string> | undefined;
    const url = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(path?.[name] ?? '')));
    const query = Object.entries((request.query ?? {}) as Record<string, unknown>).filter(([, v]) => v !== undefined);
    const search = query.length > 0 ? `?${new URLSearchParams(query.map(([k, v]) => [k, String(v)])).toString()}` : '';
    const response = await app.inject({
      method: op.method.toUpperCase() as 'GET',
      url: url + search,
      ...(request.body === undefined ? {} : { payload: request.body as object }),
    });
    const body: unknown = response.body.length > 0 ? JSON.parse(response.body) : undefined;
    if (response.statusCode >= 300) throw new ControlApiError(operationId, response.statusCode, body as ApiErrorBody);
    return body as never;
  };
}
