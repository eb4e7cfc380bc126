import type { InjectOptions, LightMyRequestResponse } from 'fastify';
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

/** The control operation a request goes to, by method and path. */
export function controlOperationOf(method: string, url: string): string | undefined {
  const path = url.split('?', 1)[0] ?? '';
  return controlSpec.operations.find(
    (op) => op.method.toUpperCase() === method.toUpperCase() && new RegExp(`^${op.path.replace(/\{[^}]+\}/g, '[^/]+')}$`).test(path),
  )?.operationId;
}

/** Makes every control call made through `app.inject` (as createFake's methods do) checked against the control document. */
export function checkControlCalls(app: FakeApp): void {
  const inject = app.inject.bind(app) as (options: InjectOptions) => Promise<LightMyRequestResponse>;
  (app as unknown as { inject: typeof inject }).inject = async (options) => {
    const response = await inject(options);
    const operationId = controlOperationOf(String(options.method ?? 'GET'), String(options.url ?? ''));
    if (operationId) expectControlConforms(operationId, response);
    return response;
  };
}
