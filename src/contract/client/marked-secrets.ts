// The values of an answer that the document marks as credentials: `x-secret` on the schema of the
// body, of a field or of an item (under any allOf/anyOf/oneOf branch) of the response documented
// for the operation and status answered. Only these of a body become masks: a field that merely
// bears a credential's name (an `authenticationToken` in an answer that documents none) holds
// whatever word the server chose, and masked, that word would be cut out of every report.
import { documentedResponse, type Operation } from '../../spec/index.js';
import { isSchemaNode, itemSchema, marksAnywhere, propertySchema, schemaBranches, type SchemaNode } from '../../spec/schema-branches.js';

// Deeper than any schema of this API; a value nested further is not read.
const MAX_DEPTH = 16;
/** Most values read of one answer: each is a mask every report text is matched against. */
const MAX_VALUES = 20;

const marking = new WeakMap<SchemaNode, boolean>();

/** A marked value and where it is in the body: `/field/0`, `` for the body itself. */
export interface MarkedPlace {
  readonly path: string;
  readonly value: string;
}

export function markedSecrets(operation: Operation, status: number, body: unknown): string[] {
  return markedPlaces(operation, status, body).map((place) => place.value);
}

/** The marked values of an answer with their places: where the document lets a credential be. */
export function markedPlaces(operation: Operation, status: number, body: unknown): MarkedPlace[] {
  const schema = documentedResponse(operation, status)?.content?.['application/json']?.schema;
  if (!isSchemaNode(schema)) return [];
  let marks = marking.get(schema);
  if (marks === undefined) marking.set(schema, (marks = marksAnywhere(schema, 'x-secret')));
  if (!marks) return [];
  const found: MarkedPlace[] = [];
  const visit = (value: unknown, path: string, schemas: readonly SchemaNode[], depth: number): void => {
    if (schemas.length === 0 || found.length >= MAX_VALUES) return;
    const branches = schemaBranches(schemas, MAX_DEPTH);
    if (branches.some((s) => s['x-secret'] === true)) {
      if (typeof value === 'string') found.push({ path, value });
      return;
    }
    if (value === null || typeof value !== 'object' || depth >= MAX_DEPTH) return;
    if (Array.isArray(value)) value.forEach((item, i) => visit(item, `${path}/${i}`, branches.flatMap<SchemaNode>((s) => itemSchema(s, i) ?? []), depth + 1));
    else for (const [key, field] of Object.entries(value)) visit(field, `${path}/${key}`, branches.flatMap<SchemaNode>((s) => propertySchema(s, key) ?? []), depth + 1);
  };
  visit(body, '', [schema], 0);
  return found;
}
