import type { IndexedProblem } from '../../spec/event-record-input.js';
import type { ErrorDetail } from '../../spec/types.js';

/** At most this many problems are listed in one answer; a body can hold 100,000 bad records. */
export const MAX_DETAILS = 200;

/** The problems of a list of records as the Error body's details, each by `/<index><field>`. */
export function recordDetails(problems: readonly IndexedProblem[]): ErrorDetail[] {
  return problems.slice(0, MAX_DETAILS).map(({ index, pointer, problem }) => ({ location: 'body', name: `/${index}${pointer}`, problem }));
}

/** The message of a refused list of records: the first problem, and how many there are. */
export function recordsMessage(problems: readonly IndexedProblem[]): string {
  const first = problems[0] as IndexedProblem;
  const more = problems.length > 1 ? ` (${problems.length} problems in all${problems.length > MAX_DETAILS ? `; the first ${MAX_DETAILS} are listed` : ''})` : '';
  return `The body does not match the schema: /${first.index}${first.pointer} ${first.problem}${more}.`;
}
