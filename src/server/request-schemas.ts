import type { FastifySchema, FastifySchemaCompiler } from 'fastify';
import type { ValidateFunction } from 'ajv';
import { createAjv, type Document, type Operation, type Schema, type Spec } from '../spec/index.js';

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

// One pair of Ajv instances per document, so a fake built again (tests build many) reuses
// the compiled validators: Ajv caches them by schema, and dereferenced schemas keep their identity.
const ajvs = new WeakMap<Document, { parameterAjv: ReturnType<typeof createAjv>; bodyAjv: ReturnType<typeof createAjv> }>();
function ajvsOf({ document, schemasChecked }: Spec) {
  let pair = ajvs.get(document);
  if (!pair) {
    const parameterAjv = createAjv(document, { coerceTypes: true, metaSchemaChecked: schemasChecked });
    ajvs.set(document, (pair = { parameterAjv, bodyAjv: createAjv(document, { metaSchemaChecked: schemasChecked }) }));
  }
  return pair;
}

type Validator = ((data: unknown) => boolean) & { errors?: ValidateFunction['errors'] };

/** A validator compiled on its first call; its errors are those of the last call. */
function compiledOnFirstUse(compile: () => Validator): Validator {
  let compiled: Validator | undefined;
  const validator: Validator = (data) => {
    compiled ??= compile();
    const ok = compiled(data);
    validator.errors = compiled.errors;
    return ok;
  };
  return validator;
}

/**
 * Validators for one document. Parameters arrive as text, so their Ajv coerces types
 * (`limit=5` against an integer); a JSON body does not (`{"text": 5}` stays wrong).
 *
 * For the kit's own documents (schemasChecked: every operation's schemas compile in npm test),
 * a validator is compiled when its operation is first called: compiling all of them was the
 * largest part of the start-up, and the control API's snapshot bodies are rarely sent.
 * Another document's validators are compiled at start, so a schema Ajv cannot compile stops
 * the start instead of failing a request.
 */
export function createRequestValidators(spec: Spec) {
  const { parameterAjv, bodyAjv } = ajvsOf(spec);
  const when = spec.schemasChecked ? compiledOnFirstUse : (compile: () => Validator) => compile();

  /** The compiler of one operation's route; an absent body (null to Fastify) is an error only when the body is required. */
  return (operation: Operation): FastifySchemaCompiler<FastifySchema> =>
    ({ schema, httpPart }) => {
      if (httpPart !== 'body') return when(() => parameterAjv.compile(schema as Schema));
      const required = operation.requestBody?.required === true;
      return when(() => {
        const validateBody = bodyAjv.compile(schema as Schema);
        const validator: Validator = (data) => {
          if (data === null || data === undefined) {
            validator.errors = required
              ? [{ instancePath: '', schemaPath: '#/required', keyword: 'required', params: {}, message: 'is required' }]
              : null;
            return !required;
          }
          const ok = validateBody(data);
          validator.errors = validateBody.errors;
          return ok;
        };
        return validator;
      });
    };
}
