import type { Cleared, FaultSpec, TargetOperationId } from '../../../spec/control-types.js';
import type { ControlHandlerMap } from '../types.js';

export const faultControlHandlers: ControlHandlerMap = {
  listFaults: (_request, _reply, { faults }) => faults.list(),
  injectFault: (request, _reply, { faults }) => faults.inject(request.body as FaultSpec),
  clearFaults: (request, _reply, { faults }): Cleared => {
    const { operationId } = request.query as { operationId?: TargetOperationId };
    return { cleared: faults.clear(operationId) };
  },
  deleteFault: (request, _reply, { faults, errors }) => {
    const { faultId } = request.params as { faultId: string };
    if (!faults.delete(faultId)) throw errors('NOT_FOUND', `No injected fault has id "${faultId}".`);
  },
};
