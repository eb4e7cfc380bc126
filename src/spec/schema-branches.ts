/** A schema object of the dereferenced document (which may be cyclic). */
export type SchemaNode = Record<string, unknown>;

const COMBINATORS = ['allOf', 'anyOf', 'oneOf'] as const;

export const isSchemaNode = (value: unknown): value is SchemaNode => value !== null && typeof value === 'object' && !Array.isArray(value);

/** Whether `mark` (such as `x-secret`) is true on the schema or on any schema in it (the document may be cyclic). */
export function marksAnywhere(schema: unknown, mark: string, seen = new Set<unknown>()): boolean {
  if (schema === null || typeof schema !== 'object' || seen.has(schema)) return false;
  seen.add(schema);
  if (isSchemaNode(schema) && schema[mark] === true) return true;
  return Object.values(schema).some((value) => marksAnywhere(value, mark, seen));
}

/**
 * The schemas and their allOf, anyOf and oneOf branches, `maxDepth` combinators deep at most,
 * each once: a value of them may have to match any, so a mark such as `x-secret` on any counts.
 */
export function schemaBranches(schemas: readonly SchemaNode[], maxDepth: number): SchemaNode[] {
  const found = new Set<SchemaNode>();
  const visit = (node: SchemaNode, depth: number): void => {
    if (found.has(node)) return;
    found.add(node);
    if (depth >= maxDepth) return;
    for (const key of COMBINATORS) {
      const list = node[key];
      if (Array.isArray(list)) for (const branch of list) if (isSchemaNode(branch)) visit(branch, depth + 1);
    }
  };
  for (const schema of schemas) visit(schema, 0);
  return [...found];
}

/** The schema of an object's property `key` under one schema: its own property, else `additionalProperties`. */
export function propertySchema(schema: SchemaNode, key: string): SchemaNode | undefined {
  const properties = isSchemaNode(schema.properties) ? schema.properties : {};
  const found = Object.hasOwn(properties, key) ? properties[key] : schema.additionalProperties;
  return isSchemaNode(found) ? found : undefined;
}

/** The schema of an array's item at `index` under one schema: its `prefixItems` entry, else `items`. */
export function itemSchema(schema: SchemaNode, index: number): SchemaNode | undefined {
  const found = (Array.isArray(schema.prefixItems) ? schema.prefixItems[index] : undefined) ?? schema.items;
  return isSchemaNode(found) ? found : undefined;
}
