import type { Cleared, FaultSpec, TargetOperationId } from '../../../spec/control-types.js';
import type { ErrorDetail } from '../../../spec/types.js';
import { rangeProblem } from '../../runtime-config.js';
import { invalidBody } from '../body-problems.js';
import type { ControlHandlerMap } from '../types.js';

/** What the schema cannot say of a fault: a range the wrong way round, fields that do not go together. */
function faultProblems(spec: FaultSpec): ErrorDetail[] {
  const details = rangeProblem(spec.delayMs, '/delayMs');
  const problem = (name: string, text: string) => details.push({ location: 'body', name, problem: text });
  if (spec.body !== undefined && spec.status !== undefined && spec.status !== spec.body.status) problem('/status', `must be the status of body (${spec.body.status}), or left out`);
  if (spec.action !== undefined && spec.action !== 'error') {
    for (const field of ['status', 'message', 'body'] as const) if (spec[field] !== undefined) problem(`/${field}`, `is for action "error" only, not "${spec.action}"`);
  }
  return details;
}

export const faultControlHandlers: ControlHandlerMap = {
  listFaults: (_request, _reply, { faults }) => faults.list(),
  injectFault: (request, _reply, context) => {
    const { faults, errors, controlMessages: messages } = context;
    const spec = request.body as FaultSpec;
    const details = faultProblems(spec);
    if (details.length > 0) throw invalidBody(context, details);
    if (faults.size >= faults.capacity) throw errors('INVALID_BODY', messages('INVALID_BODY', 'faultsFull', { capacity: String(faults.capacity) }));
    return faults.inject(spec);
  },
  clearFaults: (request, _reply, { faults }): Cleared => {
    const { operationId } = request.query as { operationId?: TargetOperationId };
    return { cleared: faults.clear(operationId) };
  },
  deleteFault: (request, _reply, { faults, errors, controlMessages: messages }) => {
    const { faultId } = request.params as { faultId: string };
    if (!faults.delete(faultId)) throw errors('NOT_FOUND', messages('NOT_FOUND', 'fault', { id: faultId }));
  },
};
