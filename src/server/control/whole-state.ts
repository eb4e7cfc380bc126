import type { StateSummary } from '../../spec/control-types.js';
import type { ControlContext } from './types.js';

/** How much the state holds. */
export function summarize({ state, faults }: ControlContext): StateSummary {
  const users = state.users.list();
  return {
    users: users.length,
    tokens: users.filter((u) => state.tokens.tokenOf(u.id) !== undefined).length,
    sessions: state.sessions.size,
    eventLogRecords: state.data.events.size,
    blockLogRecords: state.data.blocks.size,
    activeBlocks: state.data.limiter.activeBlocks().length,
    faults: faults.size,
  };
}

/** Back to the seed; the start-up configuration too unless `keepConfig`, the sessions unless `keepSessions`. Faults go either way. */
export function resetAll(context: ControlContext, { keepConfig = false, keepSessions = false }: { keepConfig?: boolean; keepSessions?: boolean }): StateSummary {
  context.state.reset({ keepSessions });
  context.faults.clear();
  if (keepConfig) context.state.data.limiter.setRules(context.config.rateLimit); // the seed's reset restored the start-up rules
  else context.config.reset();
  return summarize(context);
}
