import type { ConfigUpdate } from '../../../spec/control-types.js';
import { rangeProblem } from '../../runtime-config.js';
import { invalidBody } from '../body-problems.js';
import type { ControlHandlerMap } from '../types.js';

export const configControlHandlers: ControlHandlerMap = {
  getConfig: (_request, _reply, { config }) => config.get(),
  updateConfig: (request, _reply, context) => {
    const { config } = context;
    const update = request.body as ConfigUpdate;
    const details = Object.entries(update.operationLatencyMs ?? {}).flatMap(([operationId, latency]) => rangeProblem(latency, `/operationLatencyMs/${operationId}`));
    if (details.length > 0) throw invalidBody(context, details);
    return config.update(update);
  },
};
