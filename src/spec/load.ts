import SwaggerParser from '@apidevtools/swagger-parser';
import type { OpenAPIV3_1 } from 'openapi-types';
import { listOperations, type Operation } from './operations.js';
import { monitoringApiPath } from './paths.js';

export type Document = OpenAPIV3_1.Document;

/** A loaded, validated and dereferenced OpenAPI document with its flat list of operations. */
export interface Spec {
  /** Where the document was read from. */
  readonly source: string;
  /** The document with every `$ref` replaced by the object it points to. */
  readonly document: Document;
  readonly operations: readonly Operation[];
  /** Looks an operation up by its operationId; throws for an unknown id. */
  operation(operationId: string): Operation;
}

/**
 * Reads, validates (OpenAPI 3.1 structure and `$ref`s) and dereferences the document.
 * The default is the kit's own description of the monitoring API.
 */
export async function loadSpec(source: string = monitoringApiPath): Promise<Spec> {
  const document = (await SwaggerParser.validate(source)) as Document;
  const operations = listOperations(document);
  const byId = new Map(operations.map((op) => [op.operationId, op]));
  return {
    source,
    document,
    operations,
    operation(operationId: string): Operation {
      const op = byId.get(operationId);
      if (!op) throw new Error(`The document has no operation "${operationId}".`);
      return op;
    },
  };
}
