import type { FastifyInstance } from 'fastify';
import type { Spec } from '../../spec/index.js';
import { registerOperations, type RequestRefusal, type RouteReport } from '../routes.js';
import { blockControlHandlers } from './handlers/blocks.js';
import { configControlHandlers } from './handlers/config.js';
import { eventLogControlHandlers } from './handlers/event-log.js';
import { faultControlHandlers } from './handlers/faults.js';
import { ingestControlHandlers } from './handlers/ingest.js';
import { requestControlHandlers } from './handlers/requests.js';
import { sessionControlHandlers } from './handlers/sessions.js';
import { stateControlHandlers } from './handlers/state.js';
import type { ControlContext, ControlHandlerMap } from './types.js';

export type { ControlContext, ControlHandlerMap } from './types.js';

/** Every path of the control API starts with this. */
export const CONTROL_PREFIX = '/__control';
/** The control API's body limit (16 MiB, from its document): snapshots are large. */
export const CONTROL_BODY_LIMIT_BYTES = 16 * 1024 * 1024;

export const controlHandlers: ControlHandlerMap = {
  ...stateControlHandlers,
  ...sessionControlHandlers,
  ...configControlHandlers,
  ...faultControlHandlers,
  ...eventLogControlHandlers,
  ...blockControlHandlers,
  ...requestControlHandlers,
  ...ingestControlHandlers,
};

/**
 * The control API's routes, from its document by operationId, like the monitoring API's. Who
 * may call them is the Host and Origin guard's control rule (host-origin-guard.ts).
 */
export function registerControlApi(app: FastifyInstance, controlSpec: Spec, context: ControlContext, invalid: RequestRefusal): RouteReport {
  return registerOperations(app, {
    spec: controlSpec,
    handlers: controlHandlers,
    context,
    bodyLimit: CONTROL_BODY_LIMIT_BYTES,
    surface: 'control',
    invalid,
  });
}
