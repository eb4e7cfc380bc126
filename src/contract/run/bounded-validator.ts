// The document's validator as the runner's checks see it, bounded for hostile answers: a list is
// validated on its first items (as many as a reference list asks for, at least 500), and at
// most a few hundred schema errors are passed on. An answer of thousands of wrong records gives
// an error for each field of each, and the checks compare errors with one another, so their
// work grows with the square of the count.
import type { ObservedResponse, SchemaError, SpecValidator } from '../../spec/index.js';
import { head } from '../head.js';

export const MAX_SCHEMA_ERRORS = 200;
const MAX_MESSAGE = 4096;

const first = (errors: readonly SchemaError[]): SchemaError[] => errors.slice(0, MAX_SCHEMA_ERRORS);

export function boundedValidator(validator: SpecValidator, maxItems: number): SpecValidator {
  const items = (value: unknown): unknown => (Array.isArray(value) && value.length > maxItems ? value.slice(0, maxItems) : value);
  return {
    ajv: validator.ajv,
    responseFor: (operationId, status) => validator.responseFor(operationId, status),
    validate: (schema, value) => first(validator.validate(schema, items(value))),
    validateNamed: (name, value) => first(validator.validateNamed(name, items(value))),
    checkResponse: (operationId, response) => {
      // The validator parses the body itself: a list too long is handed over as its first items.
      const json = (response as ObservedResponse & { json?: unknown }).json;
      const bounded = Array.isArray(json) && json.length > maxItems ? { ...response, body: JSON.stringify(json.slice(0, maxItems)) } : response;
      return validator.checkResponse(operationId, bounded).map((problem) => ({
        ...problem,
        message: head(problem.message, MAX_MESSAGE),
        ...(problem.schemaErrors ? { schemaErrors: first(problem.schemaErrors) } : {}),
      }));
    },
  };
}
