import { logHandlers } from './logs.js';
import { sessionHandlers } from './sessions.js';
import { tokenHandlers } from './tokens.js';
import type { HandlerMap } from './types.js';
import { userHandlers } from './users.js';

export type { HandlerContext, HandlerMap, OperationHandler } from './types.js';

/** Every handler of the fake, keyed by operationId. A new resource adds its map here. */
export const builtInHandlers: HandlerMap = {
  ...userHandlers,
  ...sessionHandlers,
  ...tokenHandlers,
  ...logHandlers,
};
