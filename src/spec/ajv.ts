import { Ajv2020, type Options } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { OpenAPIV3_1 } from 'openapi-types';

// ajv-formats is CommonJS; under NodeNext its default export arrives wrapped.
type FormatsPlugin = (ajv: Ajv2020) => Ajv2020;
const addFormats = ((addFormatsModule as unknown as { default?: FormatsPlugin }).default ??
  addFormatsModule) as unknown as FormatsPlugin;

/** OpenAPI keywords that may stand in a 3.1 schema and carry no validation meaning. */
const ANNOTATIONS = ['example', 'xml', 'externalDocs', 'discriminator'];

function collectExtensionKeys(node: unknown, into: Set<string>, seen = new Set<unknown>()): Set<string> {
  if (node === null || typeof node !== 'object' || seen.has(node)) return into;
  seen.add(node);
  for (const [key, value] of Object.entries(node)) {
    if (key.startsWith('x-')) into.add(key);
    collectExtensionKeys(value, into, seen);
  }
  return into;
}

/**
 * What differs between the Ajvs of the kit: requests' parameters are text (`coerceTypes`); large
 * bodies are checked up to their first problem (`allErrors` false: a body of 100,000 bad items has
 * at least as many); `verbose` errors carry the value and the schema, so that a problem can say what
 * was sent and what is allowed; `metaSchemaChecked` schemas (the kit's own, checked by npm test) are
 * not checked against the meta-schema again, which was most of the start-up.
 */
export type AjvChoices = Pick<Options, 'coerceTypes' | 'allErrors' | 'verbose'> & { readonly metaSchemaChecked?: boolean };

/**
 * An Ajv (JSON Schema 2020-12, the dialect of OpenAPI 3.1) that knows the document's annotation
 * keywords, so strict mode still catches typos in real keywords. `discriminator` is one: Ajv
 * cannot use its `mapping`, and the `oneOf` beside it already decides the branch by `type` constants.
 */
export function createAjv(document?: OpenAPIV3_1.Document, { metaSchemaChecked, allErrors = true, ...choices }: AjvChoices = {}): Ajv2020 {
  const ajv = new Ajv2020({ validateSchema: metaSchemaChecked !== true, strict: true, strictRequired: false, allErrors, allowUnionTypes: true, ...choices });
  addFormats(ajv);
  const keywords = new Set(ANNOTATIONS);
  if (document) collectExtensionKeys(document, keywords);
  for (const keyword of keywords) ajv.addKeyword(keyword);
  return ajv;
}
