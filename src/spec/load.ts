import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dereference } from '@apidevtools/json-schema-ref-parser';
import type { OpenAPIV3_1 } from 'openapi-types';
import { documentCacheParser } from './document-cache.js';
import { listOperations, type Operation } from './operations.js';
import { controlApiPath, monitoringApiPath } from './paths.js';

export type Document = OpenAPIV3_1.Document;

/** A loaded, validated and dereferenced OpenAPI document with its flat list of operations. */
export type Spec = ReturnType<typeof specOf>;

// The kit's own documents, loaded once per process: npm test validates them (Redocly, Spectral,
// swagger-parser), so they are only read and dereferenced (validating took a fifth of the start-up).
const OWN_DOCUMENTS = new Set([monitoringApiPath, controlApiPath]);
const loaded = new Map<string, Promise<Spec>>();

// Where a `window` exists (Vitest's jsdom) json-schema-ref-parser takes every path for a URL of
// the page and its file reader declines: the documents are named by file URLs, read here.
const kitFiles = { order: 1, canRead: /^file:/i, read: (file: { url: string }) => readFileSync(fileURLToPath(file.url)) };

/** Reads, validates (OpenAPI 3.1 structure and `$ref`s) and dereferences the document (default: the kit's monitoring API). */
export async function loadSpec(source: string = monitoringApiPath): Promise<Spec> {
  if (!OWN_DOCUMENTS.has(source)) {
    // swagger-parser (with its own Ajv and the OpenAPI schemas) is loaded only for other documents.
    const { default: SwaggerParser } = await import('@apidevtools/swagger-parser');
    return specOf(source, (await SwaggerParser.validate(source)) as Document, false);
  }
  let spec = loaded.get(source);
  if (!spec) {
    // Parsed by the build where it can be (document-cache.ts), also the document the control API's refers to.
    spec = dereference(pathToFileURL(source).href, { parse: { kitDocumentCache: documentCacheParser }, resolve: { kitFiles } }).then((document) => specOf(source, document as unknown as Document, true));
    loaded.set(source, spec);
    // A failed read is not kept: the next call tries again.
    spec.catch(() => loaded.delete(source));
  }
  return spec;
}

function specOf(source: string, document: Document, schemasChecked: boolean) {
  const operations: readonly Operation[] = listOperations(document);
  const byId = new Map(operations.map((op) => [op.operationId, op]));
  return {
    /** Where the document was read from. */
    source,
    /** The document with every `$ref` replaced by the object it points to. */
    document,
    operations,
    /** The kit's own documents, whose schemas npm test checks: validators skip the meta-schema check. */
    schemasChecked,
    /** Looks an operation up by its operationId; throws for an unknown id. */
    operation(operationId: string): Operation {
      const op = byId.get(operationId);
      if (!op) throw new Error(`The document has no operation "${operationId}".`);
      return op;
    },
  };
}
