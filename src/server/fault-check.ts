import { ApiError } from '../errors.js';
import type { FaultStore } from '../store/faults.js';
import type { RequestCheck } from './request-hooks.js';

/**
 * Answers a call of the operation with its injected fault, if one takes it: the first check
 * of the route, before authentication, rate limits and the handler, so a faulted call changes
 * nothing. The status is the fault's own; the body is the document's Error with INJECTED_FAULT.
 */
export function createFaultCheck(faults: FaultStore, operationId: string): RequestCheck {
  return function injectFault() {
    if (faults.size === 0) return;
    const fault = faults.take(operationId);
    if (fault) throw new ApiError('INJECTED_FAULT', fault.status, fault.message);
  };
}
