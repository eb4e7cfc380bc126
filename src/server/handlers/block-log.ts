import { parseLimitBlockLogQuery, type RawLimitBlockLogQueryParams } from '../../store/block-log.js';
import { queryRefused } from './query-problems.js';
import type { HandlerMap } from './types.js';

export const blockLogHandlers: HandlerMap = {
  getLimitBlockLog: (request, _reply, { state, errors }) => {
    const parsed = parseLimitBlockLogQuery(request.query as RawLimitBlockLogQueryParams);
    if (!parsed.ok) throw queryRefused(parsed.problems, errors);
    return state.data.blocks.query(parsed.query);
  },
};
