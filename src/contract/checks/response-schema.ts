import { responseSpecView, type Document, type SchemaError } from '../../spec/index.js';
import { citeOperation, citeResponse } from '../citations.js';
import { relevantErrors } from '../schema-errors.js';
import { citeDocumentError, citeSpecError, componentNames, errorLocation } from '../schema-verdict.js';
import type { Citation, Exchange, Failure, Verdict } from '../types.js';
import { failure } from './failure.js';
import { responseProblems } from './response-problems.js';
import { defineCheck } from './define.js';

type Node = Record<string, unknown>;

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

const COMPOSITE = new Set(['oneOf', 'anyOf', 'allOf', 'not']);

/** Document errors the spec errors already explain: at or under a spec error's place (or a composite above one). */
function explained(error: SchemaError, specErrors: readonly SchemaError[]): boolean {
  const at = errorLocation(error);
  return specErrors.some((s) => {
    const place = errorLocation(s);
    return at === place || at.startsWith(`${place}/`) || (COMPOSITE.has(error.keyword) && (place === at || place.startsWith(`${at}/`)));
  });
}

interface Judged {
  readonly error: SchemaError;
  readonly citation: Citation;
  readonly verdict: Verdict;
}

/** One failure per citation: the same problem in 200 records is one finding. */
function grouped(judged: readonly Judged[]): { citation: Citation; verdict: Verdict; messages: Map<string, number> }[] {
  const groups = new Map<string, { citation: Citation; verdict: Verdict; messages: Map<string, number> }>();
  for (const { error, citation, verdict } of judged) {
    const key = `${verdict}|${citation.source}|${citation.ref}|${citation.text}`;
    const group = groups.get(key) ?? { citation, verdict, messages: new Map<string, number>() };
    const message = describe(error);
    group.messages.set(message, (group.messages.get(message) ?? 0) + 1);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/**
 * The body matches the documented schema. Failing the spec's view of the schema (the fields
 * and JSON types of the spec's tables) is a violation; failing only the document's own
 * constraints is a note.
 */
export const responseSchema = defineCheck({
  name: 'response-schema',
  title: 'The body matches the documented schema',
  run(exchange: Exchange, context) {
    const response = exchange.response;
    if (!response) return [];
    const op = context.spec.operation(exchange.operationId);
    const failures: Failure[] = [];
    for (const problem of responseProblems(exchange, context)) {
      if (problem.kind === 'unexpected-body') {
        failures.push(failure(this, exchange, { message: problem.message, expected: 'no body', citation: citeResponse(op, response.status) }));
      }
      if (problem.kind !== 'schema' || !problem.schemaErrors) continue;
      const documented = context.validator.responseFor(op.operationId, response.status);
      const root = documented?.content?.['application/json']?.schema as Node | undefined;
      if (!root) continue;
      const view = responseSpecView(documented) as Node | undefined;
      const specErrors = view ? relevantErrors(view, context.validator.validate(view, response.json), response.json) : [];
      const judged: Judged[] = [
        ...specErrors.map((error) => ({ error, verdict: 'violation' as const, citation: citeSpecError(view ?? {}, error, citeOperation(op)) })),
        ...relevantErrors(root, problem.schemaErrors, response.json)
          .filter((error) => !explained(error, specErrors))
          .map((error) => ({ error, verdict: 'note' as const, citation: citeDocumentError(root, error, namesOf(context.spec.document)) })),
      ];
      for (const { citation, verdict, messages } of grouped(judged)) {
        const listed = [...messages].slice(0, 4).map(([m, n]) => (n > 1 ? `${m} (${n} times)` : m));
        const more = messages.size > 4 ? `; and ${messages.size - 4} more` : '';
        failures.push(
          failure(this, exchange, {
            message: `${listed.join('; ')}${more}`,
            expected:
              verdict === 'violation'
                ? `the body of a ${response.status} has the fields and JSON types of the spec's table (${citation.text})`
                : `the body of a ${response.status} matches the document's schema (${citation.ref})`,
            citation,
            verdict,
          }),
        );
      }
    }
    return failures;
  },
});
