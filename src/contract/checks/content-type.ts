import { citeResponse } from '../citations.js';
import type { Check } from '../types.js';
import { failure } from './failure.js';
import { responseProblems } from './response-problems.js';

/** A documented JSON answer comes as application/json and parses (spec 1: JSON over HTTP). */
export const contentType: Check = {
  name: 'content-type',
  title: 'The body is JSON with a JSON content type',
  run(exchange, context) {
    const status = exchange.response?.status ?? 0;
    const problems = responseProblems(exchange, context).filter((p) => p.kind === 'content-type' || p.kind === 'not-json');
    const op = context.spec.operation(exchange.operationId);
    return problems.map((p) =>
      failure(this, exchange, {
        message: p.message,
        expected: 'Content-Type application/json and a JSON body',
        citation: citeResponse(op, status, 'The service exposes a REST interface as JSON over HTTP (spec 1).'),
      }),
    );
  },
};
