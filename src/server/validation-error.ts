import type { FastifySchemaValidationError } from 'fastify';
import { errorField } from '../spec/error-field.js';
import type { ErrorDetail } from '../spec/types.js';

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

const unescape = (segment: string) => segment.replace(/~1/g, '/').replace(/~0/g, '~');

/**
 * The details of a failed validation: a parameter is named by its name, a body field by its
 * JSON pointer (`/` for the whole body), each with the problem in words.
 */
export function validationDetails(part: RequestPart, errors: readonly FastifySchemaValidationError[]): ErrorDetail[] {
  const location = LOCATIONS[part];
  const seen = new Set<string>();
  const details: ErrorDetail[] = [];
  for (const error of errors) {
    const { pointer, problem } = errorField({ ...error, params: error.params as Record<string, unknown> });
    const name = location === 'body' ? pointer : unescape(pointer.split('/')[1] ?? '');
    const key = `${name}\u0000${problem}`;
    if (seen.has(key)) continue;
    seen.add(key);
    details.push({ location, name, problem });
  }
  return details;
}

/** One sentence naming every problem, e.g. `query parameter "limit" must match pattern "^[0-9]{1,9}$"`. */
export function describeDetails(details: readonly ErrorDetail[]): string {
  return details
    .map(({ location, name, problem }) =>
      location === 'body' && name === '/' ? `body ${problem}` : `${LABELS[location]} "${name}" ${problem}`,
    )
    .join('; ');
}
