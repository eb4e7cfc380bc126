import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { FakeApp } from '../../../src/server/build.js';
import { controlApiPath, createSpecValidator, loadSpec } from '../../../src/spec/index.js';
import { conformanceCheck } from '../helpers.js';

export const controlSpec = await loadSpec(controlApiPath);
export const controlValidator = createSpecValidator(controlSpec);
export const CONTROL = '/__control';

/** The response conforms to the control API document for this operation. */
export const expectControlConforms = conformanceCheck(controlValidator);

/** Calls a control operation, checks the answer against the document, and returns it with its parsed body. */
export async function control<T = unknown>(
  app: FakeApp,
  operationId: string,
  request: Omit<InjectOptions, 'method'> & { method?: InjectOptions['method'] } = {},
): Promise<{ response: LightMyRequestResponse; status: number; body: T }> {
  const op = controlSpec.operation(operationId);
  const url = request.url ?? op.path;
  const response = await app.inject({ ...request, method: request.method ?? (op.method.toUpperCase() as InjectOptions['method']), url });
  expectControlConforms(operationId, response);
  return { response, status: response.statusCode, body: (response.body ? JSON.parse(response.body) : undefined) as T };
}
