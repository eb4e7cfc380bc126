import type { ApiError, ErrorFactory } from '../../errors.js';

/** One refused query parameter: its name and what is wrong, for an ErrorDetail. */
export interface QueryProblem {
  readonly name: string;
  readonly problem: string;
}

/** A query in the store's terms, or what is wrong with it. */
export type ParseResult<Q> = { readonly ok: true; readonly query: Q } | { readonly ok: false; readonly problems: QueryProblem[] };

/**
 * The document's rule for time ranges that its schemas cannot state: `from` not above `to`
 * (both bounds inclusive, in ms).
 */
export function timeRangeProblem(from: number | undefined, to: number | undefined): QueryProblem | undefined {
  return from !== undefined && to !== undefined && from > to ? { name: 'from', problem: `must not be greater than "to" (${from} > ${to})` } : undefined;
}

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
