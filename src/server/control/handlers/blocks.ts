import type { Blocks, BlocksCleared, Cleared } from '../../../spec/control-types.js';
import type { BlockedRequest } from '../../../spec/types.js';
import type { ControlHandlerMap } from '../types.js';

export const blockControlHandlers: ControlHandlerMap = {
  listBlocks: (_request, _reply, { state }): Blocks => ({
    active: state.data.limiter.activeBlocks(),
    log: state.data.blocks.query({}),
  }),

  clearBlocks: (request, _reply, { state }): BlocksCleared => {
    const { scope = 'all' } = request.query as { scope?: 'active' | 'log' | 'all' };
    const cleared: BlocksCleared = { active: 0, log: 0 };
    if (scope !== 'log') cleared.active = state.data.limiter.clear();
    if (scope !== 'active') cleared.log = state.data.blocks.clear();
    return cleared;
  },

  /** The body is checked whole by the document before this runs, so the log changes all at once or not at all. */
  replaceBlockLog: (request, _reply, { state }): BlockedRequest[] => {
    state.data.blocks.restore(request.body as BlockedRequest[]);
    return state.data.blocks.query({});
  },

  clearBlockLog: (_request, _reply, { state }): Cleared => ({ cleared: state.data.blocks.clear() }),
};
