import { ApiError } from '../errors.js';
import type { Fault } from '../spec/control-types.js';
import type { Operation } from '../spec/index.js';
import type { FaultStore } from '../store/faults.js';
import { documentedHeaders, type HeaderValues } from './documented-headers.js';
import { drawLatency } from './latency.js';
import type { RequestCheck } from './routes.js';
import { ScriptedAnswer } from './scripted-answer.js';

/**
 * The error a fault answers with: its own Error body, or INJECTED_FAULT with its message, and
 * the headers the document gives its status (a 429's `Retry-After`), as a `Prefer: code=` answer has.
 */
function faultError(fault: Fault, headers: HeaderValues | undefined): ApiError {
  return fault.body === undefined
    ? new ApiError('INJECTED_FAULT', fault.status, fault.message, headers ? { headers } : {})
    : ApiError.fromBody(fault.body, fault.status, headers);
}

/**
 * Answers a call of the operation with its injected fault, if one takes it: the first check
 * of the route, before authentication, rate limits and the handler, so a faulted call changes
 * nothing. An error at once is thrown as it is; a wait, a dropped connection or a hang as a
 * ScriptedAnswer, with the wait drawn from `random` (the fake's seeded source).
 */
export function createFaultCheck(faults: FaultStore, operation: Operation, random: () => number): RequestCheck {
  const { operationId } = operation;
  const headers = documentedHeaders(operation);
  return function injectFault() {
    if (faults.size === 0) return;
    const fault = faults.take(operationId);
    if (!fault) return;
    const error = faultError(fault, headers.get(fault.status));
    const action = fault.action ?? 'error';
    if (action === 'error' && fault.delayMs === undefined) throw error;
    throw new ScriptedAnswer(action, drawLatency(fault.delayMs, random), error);
  };
}
