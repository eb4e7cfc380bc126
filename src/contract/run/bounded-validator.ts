// The document's validator as the runner's checks see it, bounded for hostile answers: a list is
// validated on its first items (as many as a reference list asks for, at least 500), and at
// most a few hundred schema errors are passed on (src/contract/schema-cap.ts), marked with how
// many were left out so that a check can say so.
import type { ObservedResponse, SchemaError, SpecValidator } from '../../spec/index.js';
import { head } from '../head.js';
import { firstErrors, leftOutOf, markLeftOut } from '../schema-cap.js';

const MAX_MESSAGE = 4096;

export function boundedValidator(validator: SpecValidator, maxItems: number): SpecValidator {
  const itemsLeftOut = (value: unknown): number => (Array.isArray(value) ? Math.max(0, value.length - maxItems) : 0);
  const items = (value: unknown): unknown => (itemsLeftOut(value) > 0 ? (value as unknown[]).slice(0, maxItems) : value);
  const first = (errors: readonly SchemaError[], value: unknown): SchemaError[] => {
    const kept = firstErrors(errors);
    const uncheckedItems = itemsLeftOut(value);
    return markLeftOut(kept, { errors: errors.length - kept.length, items: uncheckedItems, checkedItems: uncheckedItems > 0 ? maxItems : 0 });
  };
  return {
    ajv: validator.ajv,
    responseFor: (operationId, status) => validator.responseFor(operationId, status),
    problemWords: validator.problemWords,
    validate: (schema, value) => first(validator.validate(schema, items(value)), value),
    validateNamed: (name, value) => first(validator.validateNamed(name, items(value)), value),
    checkResponse: (operationId, response) => {
      // The validator parses the body itself: a list too long is handed over as its first items.
      const json = (response as ObservedResponse & { json?: unknown }).json;
      const bounded = itemsLeftOut(json) > 0 ? { ...response, body: JSON.stringify(items(json)) } : response;
      const problems = validator.checkResponse(operationId, bounded).map((problem) => {
        const kept = { ...problem, message: head(problem.message, MAX_MESSAGE) };
        if (!problem.schemaErrors) return kept;
        const errors = first(problem.schemaErrors, json);
        return markLeftOut({ ...kept, schemaErrors: errors }, leftOutOf(errors));
      });
      // Items never validated leave even an answer without problems unjudged.
      return markLeftOut(problems, { errors: 0, items: itemsLeftOut(json), checkedItems: maxItems });
    },
  };
}
