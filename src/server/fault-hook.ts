import type { onRequestAsyncHookHandler } from 'fastify';
import { ApiError } from '../errors.js';
import type { FaultStore } from '../store/faults.js';

/**
 * Answers a call of an operation with its injected fault, if one takes it: right after
 * routing, before authentication, rate limits and the handler, so a faulted call changes
 * nothing. The status is the fault's own; the body is the document's Error with INJECTED_FAULT.
 */
export function createFaultHook(faults: FaultStore, operationIds: ReadonlySet<string>): onRequestAsyncHookHandler {
  return async function injectFault(request) {
    const operationId = request.routeOptions.config.operationId;
    if (operationId === undefined || faults.size === 0 || !operationIds.has(operationId)) return;
    const fault = faults.take(operationId);
    if (fault) throw new ApiError('INJECTED_FAULT', fault.status, fault.message);
  };
}
