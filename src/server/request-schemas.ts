import type { FastifySchema, FastifySchemaCompiler } from 'fastify';
import type { ValidateFunction } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { createAjv, createSpecValidator, schemaProblems, type Document, type Operation, type ProblemWords, type Schema, type Spec, type VerboseError } from '../spec/index.js';
import type { AjvChoices } from '../spec/ajv.js';
import type { RequestPart, ValidationRefusal } from './validation-error.js';

const PARTS = { path: 'params', query: 'querystring', header: 'headers' } as const;

/**
 * The Fastify route schema of an operation, built from the document's parameters and body.
 * Unknown query parameters and headers are allowed (OpenAPI does not forbid them, and
 * credentials travel in them). Cookie parameters are not validated; the document has none.
 */
export function requestSchemas(operation: Operation): FastifySchema {
  const schema: Record<string, Schema> = {};
  for (const [location, part] of Object.entries(PARTS)) {
    const parameters = operation.parameters.filter((p) => p.in === location);
    if (parameters.length === 0) continue;
    const name = (n: string) => (location === 'header' ? n.toLowerCase() : n);
    schema[part] = {
      type: 'object',
      properties: Object.fromEntries(parameters.map((p) => [name(p.name), p.schema])),
      required: parameters.filter((p) => p.required).map((p) => name(p.name)),
    };
  }
  if (operation.requestBody) schema.body = operation.requestBody.schema;
  return schema;
}

// The Ajv instances of one document, so a fake built again (tests build many) reuses the
// compiled validators: Ajv caches them by schema, and dereferenced schemas keep their identity.
// Parameters arrive as text, so their Ajv coerces types (`limit=5` against an integer); a JSON
// body does not (`{"text": 5}` stays wrong). Every Ajv is `verbose`, so a problem can say what
// was sent and what is allowed.
const ajvs = new WeakMap<Document, Record<'parameters' | 'bodyFirst' | 'bodyAll', Ajv2020>>();
function ajvsOf({ document, schemasChecked }: Spec) {
  let found = ajvs.get(document);
  if (!found) {
    const ajv = (options: AjvChoices) => createAjv(document, { ...options, verbose: true, metaSchemaChecked: schemasChecked });
    found = { parameters: ajv({ coerceTypes: true }), bodyFirst: ajv({ allErrors: false }), bodyAll: ajv({}) };
    ajvs.set(document, found);
  }
  return found;
}

/**
 * A body of more values than this is checked up to its first problem only (Ajv without
 * `allErrors`): every problem of 100,000 bad items made an answer of 58 MB, and of 5,000,000
 * more memory than the fake has. A smaller body gets all its problems counted.
 */
export const VALUES_CHECKED_WHOLE = 10_000;

/** Whether a value holds more than `budget` values (itself, items, properties), looking at no more than that many. */
function holdsMoreThan(value: unknown, budget: number): boolean {
  const pending: unknown[] = [value];
  let seen = 0;
  while (pending.length > 0) {
    const next = pending.pop();
    if (++seen > budget) return true;
    if (next !== null && typeof next === 'object') for (const inner of Object.values(next)) pending.push(inner);
  }
  return false;
}

/** A compiled schema: whether a value matches, and the errors of the last call. */
type Check = ((data: unknown) => boolean) & { errors?: unknown };
/** What Fastify takes from a validator: success, or the refusal to answer with. */
type Verdict = true | { error: Error };

/** A validator compiled on its first call. */
function compiledOnFirstUse(compile: () => ValidateFunction): Check {
  let compiled: ValidateFunction | undefined;
  const check: Check = (data) => {
    compiled ??= compile();
    const ok = compiled(data) as boolean;
    check.errors = compiled.errors;
    return ok;
  };
  return check;
}

/** The problems of the last call of a validator, bounded. */
const problemsOf = (validate: Check, listed: number, words: ProblemWords) => schemaProblems((validate.errors ?? []) as VerboseError[], listed, words);

/**
 * Validators for one document, which answer Fastify with the refusal itself (the document's
 * 400, see validation-error.ts). A body is checked first up to its first problem, which is as
 * fast as a check gets; only a refused body of at most VALUES_CHECKED_WHOLE values is checked
 * again for all its problems.
 *
 * For the kit's own documents (schemasChecked: every operation's schemas compile in npm test),
 * a validator is compiled when its operation is first called: compiling all of them was the
 * largest part of the start-up, and the control API's snapshot bodies are rarely sent.
 * Another document's validators are compiled at start, so a schema Ajv cannot compile stops
 * the start instead of failing a request.
 */
export function createRequestValidators(spec: Spec, refusal: ValidationRefusal, listed: number) {
  const { parameters, bodyFirst, bodyAll } = ajvsOf(spec);
  const compiled = (ajv: Ajv2020, schema: Schema): Check => {
    const compile = () => ajv.compile(schema);
    if (spec.schemasChecked) return compiledOnFirstUse(compile);
    return compile();
  };
  const words = createSpecValidator(spec).problemWords;
  const missing = { listed: [{ pointer: '/', problem: words('required') }], count: 1 };

  /** The compiler of one operation's route; an absent body (null to Fastify) is an error only when the body is required. */
  return (operation: Operation): FastifySchemaCompiler<FastifySchema> =>
    ({ schema, httpPart }) => {
      const part = httpPart as RequestPart;
      if (part !== 'body') {
        const check = compiled(parameters, schema as Schema);
        return (data: unknown): Verdict => check(data) || { error: refusal(part, problemsOf(check, listed, words), true) };
      }
      const required = operation.requestBody?.required === true;
      const first = compiled(bodyFirst, schema as Schema);
      const all = compiled(bodyAll, schema as Schema);
      return (data: unknown): Verdict => {
        if (data === null || data === undefined) return !required || { error: refusal(part, missing, true) };
        if (first(data)) return true;
        if (holdsMoreThan(data, VALUES_CHECKED_WHOLE)) return { error: refusal(part, problemsOf(first, listed, words), false) };
        all(data);
        return { error: refusal(part, problemsOf(all, listed, words), true) };
      };
    };
}
