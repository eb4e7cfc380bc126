import { citeOperation, citeResponse } from '../citations.js';
import type { Citation, Failure } from '../types.js';
import { failure } from './failure.js';
import { describeValue } from './records.js';
import { defineCheck } from './define.js';

export interface StepExpectation {
  readonly status: readonly number[];
  /** A subset the JSON body must contain (objects by key, arrays element by element). */
  readonly body?: unknown;
}

/** Where `actual` differs from the subset `expected`, as a JSON pointer; undefined when it matches. */
export function subsetMismatch(actual: unknown, expected: unknown, at = ''): string | undefined {
  if (expected === null || typeof expected !== 'object') return actual === expected ? undefined : at || '/';
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual) || actual.length !== expected.length) return at || '/';
    for (let i = 0; i < expected.length; i++) {
      const m = subsetMismatch(actual[i], expected[i], `${at}/${i}`);
      if (m !== undefined) return m;
    }
    return undefined;
  }
  if (actual === null || typeof actual !== 'object' || Array.isArray(actual)) return at || '/';
  for (const [key, value] of Object.entries(expected)) {
    const m = subsetMismatch((actual as Record<string, unknown>)[key], value, `${at}/${key}`);
    if (m !== undefined) return m;
  }
  return undefined;
}

export interface CaseStepFacts {
  /** The step's name. */
  readonly step: string;
  readonly expect: StepExpectation;
  /** The document location the case cites for the step, when it names one. */
  readonly citation?: Citation;
}

/**
 * A step of a contract case got what the case expects (the runner reports it as
 * `case/<name>` on the case's operation). Without a citation of the case:
 * a status of another class (2xx for 4xx…) is judged by the operation's citation, another
 * status of the same class by the expected response's (a gap-fill for every error status).
 */
export const caseExpectation = defineCheck({
  name: 'case-expectation',
  title: 'A contract case step gets what the case expects',
  run(exchange, context, facts: CaseStepFacts) {
    const response = exchange.response;
    if (!response) return [];
    const { step, expect, citation } = facts;
    const op = context.spec.operation(exchange.operationId);
    const cite = (derived: Citation): Citation => citation ?? derived;
    const failures: Failure[] = [];
    const [first] = expect.status;
    if (first !== undefined && !expect.status.includes(response.status)) {
      const sameClass = Math.floor(first / 100) === Math.floor(response.status / 100);
      failures.push(
        failure(this, exchange, {
          message: `step "${step}" got ${response.status}`,
          expected: `status ${expect.status.join(' or ')}`,
          citation: cite(sameClass ? citeResponse(op, first) : citeOperation(op)),
        }),
      );
      return failures;
    }
    if (expect.body !== undefined) {
      const at = subsetMismatch(response.json, expect.body);
      if (at !== undefined) {
        failures.push(
          failure(this, exchange, {
            message: `step "${step}": the body differs at ${at}`,
            expected: `a body containing ${describeValue(expect.body)}`,
            citation: cite(citeOperation(op)),
          }),
        );
      }
    }
    return failures;
  },
});
