import type { ApiError, ErrorFactory } from '../../errors.js';
import type { IndexedProblem } from '../../spec/event-record-input.js';
import type { ErrorDetail } from '../../spec/types.js';
import type { ControlMessage } from '../error-messages.js';

/** At most this many problems are listed in one answer; a body can hold 100,000 bad records. */
export const MAX_DETAILS = 200;

/** The problems of a list of records as the Error body's details, each by `/<index><field>`. */
export function recordDetails(problems: readonly IndexedProblem[]): ErrorDetail[] {
  return problems.map(({ index, pointer, problem }) => ({ location: 'body', name: `/${index}${pointer}`, problem }));
}

/**
 * 400 INVALID_BODY for problems the document's schema cannot state (or found past it): the
 * first in the message with how many there are, and at most MAX_DETAILS in `details`. The
 * message is the document's; each problem, which names one field of this body, is the
 * validator's or the control API's check's own words (as the monitoring API's are).
 */
export function invalidBody({ errors, controlMessages: messages }: { errors: ErrorFactory; controlMessages: ControlMessage }, details: readonly ErrorDetail[]): ApiError {
  const first = details[0] as ErrorDetail;
  const values = { name: first.name ?? '', problem: first.problem, count: String(details.length), listed: String(MAX_DETAILS) };
  const name = details.length === 1 ? 'schemaProblem' : details.length > MAX_DETAILS ? 'schemaProblemsListed' : 'schemaProblems';
  return errors('INVALID_BODY', messages('INVALID_BODY', name, values), { details: details.slice(0, MAX_DETAILS) });
}
