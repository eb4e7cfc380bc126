// Checks of what one step sent: invalid input refused, a probed block recorded, a case step's expectation.
import { citeStatuses, citeParameter, citeResponse, citeOperation, failure, defineCheck, inconclusive, unreadable, rows, describeValue } from './check.js';
import type { Citation } from '../types.js';

export interface InvalidInputFacts {
  /** The input, described for people (`filter={"agentId":`). */
  readonly what: string;
  /** The parameter it went in, when it is one. */
  readonly parameter?: string;
}

/** Invalid input gets a 4xx; accepting it is a note (the spec shows no errors, refusing is the document's choice). */
export const invalidInputRefused = defineCheck({
  name: 'invalid-input-refused',
  title: 'Invalid input is refused with a 4xx',
  judgesUnreadBody: true,
  run(exchange, context, facts: InvalidInputFacts) {
    const status = exchange.response?.status;
    if (status === undefined || (status >= 400 && status < 600)) return [];
    const op = context.spec.operation(exchange.operationId);
    const { parameter } = facts;
    let citation: Citation = op.responses['400'] ? citeResponse(op, 400) : citeStatuses(op, '4');
    if (parameter && op.parameters.some((p) => p.name === parameter && typeof (p as unknown as Record<string, unknown>)['x-gap-fill'] === 'string')) {
      citation = citeParameter(op, parameter);
    }
    return [
      failure(this, exchange, {
        message: `${facts.what} was accepted with ${status}`,
        expected: 'a 4xx refusal (400 in the document)',
        citation,
        verdict: 'note',
      }),
    ];
  },
});

// The clocks of the runner and the server may differ a little.
const SKEW_MS = 60_000;

export interface BlockRecordedFacts {
  /** When the probe began (ms since the epoch, the runner's clock). */
  readonly since: number;
  /** The path the probe hammered. */
  readonly uri: string;
  /** The login that took the block. */
  readonly login?: string;
}

/** After a limit blocked the prober, the limit-block log lists the block (spec 8). */
export const blockRecorded = defineCheck({
  name: 'block-recorded',
  title: 'A block by a limit is recorded in the limit-block log',
  run(exchange, context, facts: BlockRecordedFacts) {
    const why = unreadable(exchange);
    if (why) return inconclusive(why);
    const records = rows(exchange);
    const since = facts.since - SKEW_MS;
    const { uri, login } = facts;
    const found = records.some((r) => {
      const recent = typeof r.timestamp !== 'number' || r.timestamp >= since;
      const names = (typeof r.uri === 'string' && r.uri.startsWith(uri)) || (login !== undefined && r.login === login) || typeof r.ip === 'string';
      return recent && names;
    });
    if (found) return [];
    return [
      failure(this, exchange, {
        message: `no block recorded since the probe began (${records.length} records in the log)`,
        expected: `a record naming the URI ${uri}, the login or the IP address`,
        citation: { source: 'spec', ref: '8', text: 'The REST server blocks requests that exceed its limits. Each block is recorded and listed by 4.6.' },
      }),
    ];
  },
});

/** Where `actual` differs from the subset `expected`, as a JSON pointer; undefined when it matches. */
export function subsetMismatch(actual: unknown, expected: unknown, at = ''): string | undefined {
  if (expected === null || typeof expected !== 'object') return actual === expected ? undefined : at || '/';
  // An array matches element by element, and only an array as long.
  if (actual === null || typeof actual !== 'object' || Array.isArray(actual) !== Array.isArray(expected)) return at || '/';
  if (Array.isArray(expected) && (actual as unknown[]).length !== expected.length) return at || '/';
  for (const [key, value] of Object.entries(expected)) {
    const m = subsetMismatch((actual as Record<string, unknown>)[key], value, `${at}/${key}`);
    if (m !== undefined) return m;
  }
  return undefined;
}

export interface CaseStepFacts {
  /** The step's name. */
  readonly step: string;
  /** The statuses expected, and a subset the JSON body must contain (objects by key, arrays element by element). */
  readonly expect: { readonly status: readonly number[]; readonly body?: unknown };
  /** The document location the case cites for the step, when it names one. */
  readonly citation?: Citation;
}

/**
 * A step of a contract case got what the case expects (reported as `case/<name>`). Without a
 * citation of the case, a status of another class is judged by the operation's citation, one of
 * the same class by the expected response's.
 */
export const caseExpectation = defineCheck({
  name: 'case-expectation',
  title: 'A contract case step gets what the case expects',
  run(exchange, context, facts: CaseStepFacts) {
    const response = exchange.response;
    if (!response) return [];
    const { step, expect, citation } = facts;
    const op = context.spec.operation(exchange.operationId);
    const [first] = expect.status;
    if (first !== undefined && !expect.status.includes(response.status)) {
      const sameClass = Math.floor(first / 100) === Math.floor(response.status / 100);
      return [
        failure(this, exchange, {
          message: `step "${step}" got ${response.status}`,
          expected: `status ${expect.status.join(' or ')}`,
          citation: citation ?? (sameClass ? citeResponse(op, first) : citeOperation(op)),
        }),
      ];
    }
    const at = expect.body === undefined ? undefined : subsetMismatch(response.json, expect.body);
    if (at === undefined) return [];
    return [
      failure(this, exchange, {
        message: `step "${step}": the body differs at ${at}`,
        expected: `a body containing ${describeValue(expect.body)}`,
        citation: citation ?? citeOperation(op),
      }),
    ];
  },
});
