import type { LimitBlockLogQueryParams } from '../../spec/types.js';
import { queryRefused, timeRangeProblem } from './query-problems.js';
import type { HandlerMap } from './types.js';

export const blockLogHandlers: HandlerMap = {
  // The parameters are valid by the document's schemas (integers, booleans); `from` above `to` is the one rule left.
  getLimitBlockLog: (request, _reply, { state, errors }) => {
    const query = request.query as LimitBlockLogQueryParams;
    const range = timeRangeProblem(query.from, query.to);
    if (range) throw queryRefused([range], errors);
    return state.data.blocks.query(query);
  },
};
