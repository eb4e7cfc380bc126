import type { ErrorObject } from 'ajv';
import type { Ajv2020 } from 'ajv/dist/2020.js';
import { createAjv } from './ajv.js';
import type { Spec } from './load.js';
import { documentedResponse, type Response, type Schema } from './operations.js';
import { problemWords, type ProblemWords } from './problem-words.js';

/** One way a value fails its schema: Ajv's error, its message led by the path (`/limit must be integer`). */
export type SchemaError = Readonly<Pick<ErrorObject, 'instancePath' | 'schemaPath' | 'keyword' | 'params'> & { message: string }>;

/** A response as seen on the wire: status, headers (lower-case names) and the raw body text. */
export interface ObservedResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: string;
}

export interface ResponseProblem {
  readonly kind: 'undocumented-status' | 'content-type' | 'not-json' | 'schema' | 'unexpected-body';
  readonly message: string;
  readonly schemaErrors?: readonly SchemaError[];
}

/** A header's (first) value. */
const headerValue = (headers: ObservedResponse['headers'], name: string): string | undefined => [headers[name]].flat()[0];

// One validator per loaded document: an Ajv and its compiled schemas cost a good part of the
// start-up, and a validator holds nothing else.
const validators = new WeakMap<Spec, SpecValidator>();

export type SpecValidator = ReturnType<typeof newSpecValidator>;

/** The validator of a loaded document (made once per Spec, then shared). */
export function createSpecValidator(spec: Spec): SpecValidator {
  let validator = validators.get(spec);
  if (!validator) validators.set(spec, (validator = newSpecValidator(spec)));
  return validator;
}

function newSpecValidator(spec: Spec) {
  const ajv: Ajv2020 = createAjv(spec.document, { metaSchemaChecked: spec.schemasChecked });
  /** Validates a value against a schema object of the (dereferenced) document. */
  const validate = (schema: Schema, value: unknown): SchemaError[] => {
    // Ajv keeps what it compiled by the schema object, and dereferenced schemas share identity: each is compiled once.
    const fn = ajv.compile(schema);
    if (fn(value)) return [];
    return (fn.errors ?? []).map((e) => ({
      instancePath: e.instancePath,
      schemaPath: e.schemaPath,
      keyword: e.keyword,
      message: `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`,
      params: e.params,
    }));
  };
  /** The documented response for a status: the exact code, then `4XX`-style ranges, then `default`. */
  const responseFor = (operationId: string, status: number): Response | undefined => documentedResponse(spec.operation(operationId), status);
  return {
    ajv,
    validate,
    /** Validates a value against `components.schemas[name]`. */
    validateNamed(name: string, value: unknown): SchemaError[] {
      const schema = spec.document.components?.schemas?.[name];
      if (!schema) throw new Error(`The document has no schema "${name}".`);
      return validate(schema as Schema, value);
    },
    responseFor,
    /** How the document words a schema problem (errorField, schemaProblems). */
    problemWords: problemWords(spec.document) as ProblemWords,
    /** Everything about a response that disagrees with the document; empty when it conforms. */
    checkResponse(operationId: string, response: ObservedResponse): ResponseProblem[] {
      const documented = responseFor(operationId, response.status);
      if (!documented) {
        return [{ kind: 'undocumented-status', message: `status ${response.status} is not documented for ${operationId}` }];
      }
      const media = documented.content?.['application/json'];
      if (!media) {
        return response.body.length === 0
          ? []
          : [{ kind: 'unexpected-body', message: `status ${response.status} of ${operationId} has no body in the document, but one was sent` }];
      }
      const contentType = headerValue(response.headers, 'content-type') ?? '';
      if (!/^application\/json\b/i.test(contentType)) {
        return [{ kind: 'content-type', message: `content-type is "${contentType}", the document says application/json` }];
      }
      // A coded body (gzip, br…) is bytes of that coding, not JSON text: said so, not "not valid JSON".
      const coding = headerValue(response.headers, 'content-encoding')?.trim();
      if (coding !== undefined && coding !== '' && coding.toLowerCase() !== 'identity') {
        return [{ kind: 'not-json', message: `the body is content-coded (Content-Encoding: ${coding}), not JSON text` }];
      }
      let body: unknown;
      try {
        body = JSON.parse(response.body);
      } catch {
        return [{ kind: 'not-json', message: 'the body is not valid JSON' }];
      }
      const errors = media.schema ? validate(media.schema as Schema, body) : [];
      return errors.length === 0
        ? []
        : [{ kind: 'schema', message: `the body does not match the schema: ${errors.map((e) => e.message).join('; ')}`, schemaErrors: errors }];
    },
  };
}
