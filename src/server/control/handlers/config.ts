import type { ConfigUpdate } from '../../../spec/control-types.js';
import type { ControlHandlerMap } from '../types.js';

export const configControlHandlers: ControlHandlerMap = {
  getConfig: (_request, _reply, { config }) => config.get(),
  updateConfig: (request, _reply, { config }) => config.update(request.body as ConfigUpdate),
};
