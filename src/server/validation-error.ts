import type { ApiError, ErrorFactory } from '../errors.js';
import type { Problems } from '../spec/index.js';
import type { ErrorDetail } from '../spec/types.js';
import type { ErrorMessage } from './error-messages.js';

/** The request part Fastify names in a validation error. */
export type RequestPart = 'body' | 'headers' | 'params' | 'querystring';

const LOCATIONS: Record<RequestPart, ErrorDetail['location']> = {
  params: 'path',
  querystring: 'query',
  headers: 'header',
  body: 'body',
};
const LABELS: Record<ErrorDetail['location'], string> = {
  path: 'path parameter',
  query: 'query parameter',
  header: 'header',
  cookie: 'cookie',
  body: 'body field',
};

/** How many problems the message itself names; `details` lists more. */
const IN_MESSAGE = 3;

const unescape = (segment: string) => segment.replace(/~1/g, '/').replace(/~0/g, '~');

/** One problem in words, e.g. `query parameter "limit" must match pattern "^[0-9]{1,9}$", not "5x"`. */
export const describeDetail = ({ location, name, problem }: ErrorDetail): string =>
  location === 'body' && name === '/' ? `body ${problem}` : `${LABELS[location]} "${name}" ${problem}`;

/** How a request part's problems are refused: 400 with the first problems named, their count, and at most the document's number of details. */
export type ValidationRefusal = (part: RequestPart, problems: Problems, checkedWhole: boolean) => ApiError;

/**
 * The refusal of a request whose parameters or body do not match the document: a parameter is
 * named by its name, a body field by its JSON pointer (`/` for the whole body). `checkedWhole`
 * is false for a body so large that it was checked up to its first problem (`valuesChecked`
 * values and more), which the message says.
 */
export function createValidationRefusal(errors: ErrorFactory, messages: ErrorMessage, valuesChecked: number): ValidationRefusal {
  return (part, { listed, count }, checkedWhole) => {
    const location = LOCATIONS[part];
    const details = listed.map(({ pointer, problem }): ErrorDetail => ({ location, name: location === 'body' ? pointer : unescape(pointer.split('/')[1] ?? ''), problem }));
    const code = part === 'body' ? 'INVALID_BODY' : 'INVALID_PARAMETER';
    const shown = details.slice(0, IN_MESSAGE).map(describeDetail).join('; ');
    const message = !checkedWhole
      ? messages('INVALID_BODY', 'firstOnly', { shown, values: String(valuesChecked) })
      : count > IN_MESSAGE
        ? messages(code, 'problems', { shown, count: String(count), listed: String(details.length) })
        : shown || messages(code, 'invalid');
    return errors(code, message, { details });
  };
}
