import type { ApiError, ErrorFactory } from '../../errors.js';
import type { IndexedProblem } from '../../spec/event-record-input.js';
import type { ErrorDetail } from '../../spec/types.js';

/** At most this many problems are listed in one answer; a body can hold 100,000 bad records. */
export const MAX_DETAILS = 200;

/** The problems of a list of records as the Error body's details, each by `/<index><field>`. */
export function recordDetails(problems: readonly IndexedProblem[]): ErrorDetail[] {
  return problems.map(({ index, pointer, problem }) => ({ location: 'body', name: `/${index}${pointer}`, problem }));
}

/**
 * 400 INVALID_BODY for problems the document's schema cannot state (or found past it): the
 * first in the message with how many there are, and at most MAX_DETAILS in `details`.
 */
export function invalidBody(errors: ErrorFactory, details: readonly ErrorDetail[]): ApiError {
  const first = details[0] as ErrorDetail;
  const more = details.length > 1 ? ` (${details.length} problems in all${details.length > MAX_DETAILS ? `; the first ${MAX_DETAILS} are listed` : ''})` : '';
  return errors('INVALID_BODY', `The body does not match the schema: ${first.name} ${first.problem}${more}.`, { details: details.slice(0, MAX_DETAILS) });
}
