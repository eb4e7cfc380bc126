import type { ApiError, ErrorFactory } from '../../errors.js';
import type { IndexedProblem } from '../../spec/event-record-input.js';
import type { ErrorDetail } from '../../spec/types.js';
import { errorDetailsMax, type Spec } from '../../spec/index.js';
import type { ControlMessage } from '../error-messages.js';

/** What an answer lists of the problems of a body (100,000 bad records hold as many): the first the document's Error allows. */
export const listedDetails = (spec: Spec, details: readonly ErrorDetail[]): ErrorDetail[] => details.slice(0, errorDetailsMax(spec.document));

/** The problems of a list of records as the Error body's details, each by `/<index><field>`. */
export function recordDetails(problems: readonly IndexedProblem[]): ErrorDetail[] {
  return problems.map(({ index, pointer, problem }) => ({ location: 'body', name: `/${index}${pointer}`, problem }));
}

/**
 * 400 INVALID_BODY for problems the document's schema cannot state (or found past it): the
 * first in the message with how many there are, and the first few in `details` (listedDetails). The
 * message is the document's; each problem, which names one field of this body, is the
 * validator's or the control API's check's own words (as the monitoring API's are).
 */
export function invalidBody({ errors, controlMessages: messages, spec }: { errors: ErrorFactory; controlMessages: ControlMessage; spec: Spec }, details: readonly ErrorDetail[]): ApiError {
  const first = details[0] as ErrorDetail;
  const listed = listedDetails(spec, details);
  const values = { name: first.name ?? '', problem: first.problem, count: String(details.length), listed: String(listed.length) };
  const name = details.length === 1 ? 'schemaProblem' : details.length > listed.length ? 'schemaProblemsListed' : 'schemaProblems';
  return errors('INVALID_BODY', messages('INVALID_BODY', name, values), { details: listed });
}
