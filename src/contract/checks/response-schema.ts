import type { Document, SchemaError } from '../../spec/index.js';
import { citeOperation, citeResponse } from '../citations.js';
import { relevantErrors } from '../schema-errors.js';
import { citeSchemaError, componentNames } from '../schema-verdict.js';
import type { Check, Citation, Failure } from '../types.js';
import { failure } from './failure.js';
import { responseProblems } from './response-problems.js';

const namesByDocument = new WeakMap<Document, WeakMap<object, string>>();
function namesOf(document: Document): WeakMap<object, string> {
  let names = namesByDocument.get(document);
  if (!names) {
    names = componentNames(document);
    namesByDocument.set(document, names);
  }
  return names;
}

// Ajv's message with the value it wanted, record positions generalised: /12/agentId becomes /[n]/agentId.
function describe(error: SchemaError): string {
  const p = error.params;
  const detail =
    p.allowedValue !== undefined ? ` ${JSON.stringify(p.allowedValue)}`
    : Array.isArray(p.allowedValues) ? ` ${JSON.stringify(p.allowedValues)}`
    : typeof p.additionalProperty === 'string' ? ` ("${p.additionalProperty}")`
    : '';
  return `${error.message.replace(/\/\d+(?=\/|\s)/g, '/[n]')}${detail}`;
}

/**
 * The body matches the documented schema. Each error's verdict comes from the schema nodes on
 * its path: see citeSchemaError.
 */
export const responseSchema: Check = {
  name: 'response-schema',
  title: 'The body matches the documented schema',
  run(exchange, context) {
    const response = exchange.response;
    if (!response) return [];
    const op = context.spec.operation(exchange.operationId);
    const failures: Failure[] = [];
    for (const problem of responseProblems(exchange, context)) {
      if (problem.kind === 'unexpected-body') {
        failures.push(
          failure(this, exchange, { message: problem.message, expected: 'no body', citation: citeResponse(op, response.status) }),
        );
      }
      if (problem.kind !== 'schema' || !problem.schemaErrors) continue;
      const root = context.validator.responseFor(op.operationId, response.status)?.content?.['application/json']?.schema;
      if (!root) continue;
      const errors = relevantErrors(root as Record<string, unknown>, problem.schemaErrors, response.json);
      // One failure per citation: the same problem in 200 records is one finding.
      const groups = new Map<string, { citation: Citation; messages: Map<string, number> }>();
      for (const error of errors) {
        const citation = citeSchemaError({
          root: root as Record<string, unknown>,
          error,
          names: namesOf(context.spec.document),
          fallback: citeOperation(op),
        });
        const key = `${citation.source}|${citation.ref}`;
        const group = groups.get(key) ?? { citation, messages: new Map<string, number>() };
        const message = describe(error);
        group.messages.set(message, (group.messages.get(message) ?? 0) + 1);
        groups.set(key, group);
      }
      for (const { citation, messages } of groups.values()) {
        const listed = [...messages].slice(0, 4).map(([m, n]) => (n > 1 ? `${m} (${n} times)` : m));
        const more = messages.size > 4 ? `; and ${messages.size - 4} more` : '';
        failures.push(
          failure(this, exchange, {
            message: `${listed.join('; ')}${more}`,
            expected: `the body of a ${response.status} matches the document's schema (${citation.ref})`,
            citation,
          }),
        );
      }
    }
    return failures;
  },
};
