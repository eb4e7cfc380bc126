import { specDescribesBody, type Operation, type Response, type ResponseProblem } from '../../spec/index.js';
import { citeResponse } from '../citations.js';
import type { Citation } from '../types.js';
import { failure } from './failure.js';
import { responseProblems } from './response-problems.js';
import { defineCheck } from './define.js';

const JSON_OVER_HTTP = 'The service exposes a REST interface as JSON over HTTP.';

/**
 * A body labelled JSON that does not parse breaks spec 1 wherever it comes. Another content
 * type breaks it where the spec's tables describe the body (4.2, 4.4, 4.6); where the spec does
 * not show the body (4.1, 4.3, every error answer) it differs from the document's choice.
 */
function citationFor(problem: ResponseProblem, op: Operation, documented: Response | undefined, status: number): Citation {
  if (problem.kind === 'not-json') return { source: 'spec', ref: '1', text: `${JSON_OVER_HTTP} A body labelled JSON parses as JSON.` };
  if (specDescribesBody(documented)) {
    return { source: 'spec', ref: '1', text: `${JSON_OVER_HTTP} The spec's tables describe the body of ${op.specSection ?? op.operationId}.` };
  }
  return citeResponse(op, status);
}

/** A documented JSON answer comes as application/json and parses (spec 1: JSON over HTTP). */
export const contentType = defineCheck({
  name: 'content-type',
  title: 'The body is JSON with a JSON content type',
  run(exchange, context) {
    const status = exchange.response?.status ?? 0;
    const op = context.spec.operation(exchange.operationId);
    const documented = context.validator.responseFor(op.operationId, status);
    return responseProblems(exchange, context)
      .filter((p) => p.kind === 'content-type' || p.kind === 'not-json')
      .map((p) =>
        failure(this, exchange, {
          message: p.message,
          expected: 'Content-Type application/json and a JSON body',
          citation: citationFor(p, op, documented, status),
        }),
      );
  },
});
