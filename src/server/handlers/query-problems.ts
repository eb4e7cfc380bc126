import type { ApiError, ErrorFactory } from '../../errors.js';
import type { QueryProblem } from '../../store/event-log-query.js';

/**
 * A refused query as one 400: INVALID_FILTER when the filter is among the problems (the
 * document's code for it), else INVALID_PARAMETER; every problem becomes a detail.
 */
export function queryRefused(problems: readonly QueryProblem[], errors: ErrorFactory): ApiError {
  const code = problems.some((p) => p.name === 'filter') ? 'INVALID_FILTER' : 'INVALID_PARAMETER';
  const message = problems.map((p) => `query parameter "${p.name}" ${p.problem}`).join('; ');
  return errors(code, message, {
    details: problems.map((p) => ({ location: 'query' as const, name: p.name, problem: p.problem })),
  });
}
