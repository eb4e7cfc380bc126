// The document's verdict on one response, computed once per exchange and shared by the response checks.
import type { ResponseProblem } from '../../spec/index.js';
import type { CheckContext, Exchange } from '../types.js';

const cache = new WeakMap<Exchange, ResponseProblem[]>();

export function responseProblems(exchange: Exchange, context: CheckContext): ResponseProblem[] {
  const response = exchange.response;
  if (!response) return [];
  let problems = cache.get(exchange);
  if (!problems) {
    problems = context.validator.checkResponse(exchange.operationId, response);
    cache.set(exchange, problems);
  }
  return problems;
}
