import type { ControlHandlerMap } from '../types.js';
import { resetAll } from '../whole-state.js';

export const stateControlHandlers: ControlHandlerMap = {
  resetState: (request, _reply, context) => {
    const { keepConfig } = request.query as { keepConfig?: boolean };
    return resetAll(context, keepConfig === true);
  },
};
