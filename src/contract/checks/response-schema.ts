import { responseSpecView, type Document, type SchemaError } from '../../spec/index.js';
import { citeOperation, citeResponse } from '../citations.js';
import { itemOf, leftOutOf, MAX_SCHEMA_ERRORS, type LeftOut } from '../schema-cap.js';
import { relevantErrors } from '../schema-errors.js';
import { citeDocumentError, citeSpecError, componentNames, errorLocation } from '../schema-verdict.js';
import type { Citation, Exchange, Failure, Verdict } from '../types.js';
import { failure, inconclusive, defineCheck } from './check.js';
import { responseProblems } from './response-checks.js';

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
 * With the spec view's errors cut short, the document's errors past the last item they reach
 * are not explained by them: those are left unjudged too, not reported as notes.
 */
function withinSpecErrors(errors: readonly SchemaError[], specErrors: readonly SchemaError[], specLeftOut: LeftOut | undefined): SchemaError[] {
  const last = specErrors.at(-1);
  const lastItem = last ? itemOf(last) : -1;
  if (!specLeftOut?.errors || lastItem < 0) return [...errors];
  return errors.filter((e) => itemOf(e) <= lastItem);
}

/** What the bounded validator left unjudged, said in words (empty when nothing was). */
function unjudged(errors: number, items: LeftOut | undefined): string {
  const parts: string[] = [];
  if (errors > 0) parts.push(`${errors} more schema error(s) not judged (the runner judges about the first ${MAX_SCHEMA_ERRORS} of an answer)`);
  if (items?.items) parts.push(`the ${items.items} item(s) after the first ${items.checkedItems} not checked`);
  return parts.join('; ');
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
    const problems = responseProblems(exchange, context);
    const itemsLeftOut = leftOutOf(problems);
    let leftOutErrors = 0;
    for (const problem of problems) {
      if (problem.kind === 'unexpected-body') {
        failures.push(failure(this, exchange, { message: problem.message, expected: 'no body', citation: citeResponse(op, response.status) }));
      }
      if (problem.kind !== 'schema' || !problem.schemaErrors) continue;
      const documented = context.validator.responseFor(op.operationId, response.status);
      const root = documented?.content?.['application/json']?.schema as Node | undefined;
      if (!root) continue;
      const view = responseSpecView(documented) as Node | undefined;
      const specFound = view ? context.validator.validate(view, response.json) : [];
      const specErrors = view ? relevantErrors(view, specFound, response.json) : [];
      const documentErrors = withinSpecErrors(problem.schemaErrors, specFound, leftOutOf(specFound));
      leftOutErrors += (leftOutOf(problem)?.errors ?? 0) + problem.schemaErrors.length - documentErrors.length;
      const judged: Judged[] = [
        ...specErrors.map((error) => ({ error, verdict: 'violation' as const, citation: citeSpecError(view ?? {}, error, citeOperation(op)) })),
        ...relevantErrors(root, documentErrors, response.json)
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
    const rest = unjudged(leftOutErrors, itemsLeftOut);
    if (!rest) return failures;
    // A violation among what was judged stands; without one, what was not judged may hold one.
    if (itemsLeftOut?.items && !failures.some((f) => f.verdict === 'violation')) {
      return inconclusive(`${rest}${failures.length > 0 ? `; ${failures.length} note(s) on the items checked` : ''}`);
    }
    return failures.map((f) => ({ ...f, message: `${f.message}; ${rest}` }));
  },
});
