import type { Blocks, BlocksCleared } from '../../../spec/control-types.js';
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
    if (scope !== 'active') {
      cleared.log = state.data.blocks.size;
      state.data.blocks.clear();
    }
    return cleared;
  },
};
