// Schemas of the dereferenced document and their branches, and the walk of a value together with
// its schema, to find the values a mark such as `x-secret` covers. The server masks what it finds,
// the runner collects it: one walk, so the two cannot come to disagree about which value is a credential.

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

/** The schemas and their allOf, anyOf and oneOf branches, `maxDepth` deep at most, each once: a value may have to match any, so a mark on any counts. */
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

/** A place the walk reports: a value the mark covers, or one nested too deep to judge. */
export interface MarkedValue {
  /** `marked`: a schema of the place bears the mark. `too-deep`: an object or array `maxDepth` levels down, left unread. */
  readonly kind: 'marked' | 'too-deep';
  /** The keys and indexes from the walked value down to this one; empty for the value itself. */
  readonly path: readonly (string | number)[];
  readonly value: unknown;
}

export interface MarkWalk {
  readonly mark: string;
  /** How deep the walk reads the value, and how many combinators deep it reads each schema. */
  readonly maxDepth: number;
}

// Most answers' schemas mark nothing: they are not walked at all; per schema and mark, once.
const marking = new Map<string, WeakMap<SchemaNode, boolean>>();

/** Whether `mark` is on the schema or any schema in it (cached: the document does not change). */
export function schemaMarks(schema: SchemaNode, mark: string): boolean {
  let cache = marking.get(mark);
  if (cache === undefined) marking.set(mark, (cache = new WeakMap()));
  let marks = cache.get(schema);
  if (marks === undefined) cache.set(schema, (marks = marksAnywhere(schema, mark)));
  return marks;
}

/** The places of `value`, walked under `schema`, that the mark covers, and those too deep to judge; lazy, so a caller can stop. */
export function* markedValues(value: unknown, schema: SchemaNode, walk: MarkWalk): Generator<MarkedValue, void, undefined> {
  if (schemaMarks(schema, walk.mark)) yield* visit(value, [], [schema], walk);
}

function* visit(value: unknown, path: readonly (string | number)[], schemas: readonly SchemaNode[], walk: MarkWalk): Generator<MarkedValue, void, undefined> {
  // A value no schema describes is free: nothing in it is marked.
  if (schemas.length === 0) return;
  // The value may have to match any of the branches, so a mark on any covers it, whatever it holds.
  const branches = schemaBranches(schemas, walk.maxDepth);
  if (branches.some((s) => s[walk.mark] === true)) {
    yield { kind: 'marked', path, value };
    return;
  }
  if (value === null || typeof value !== 'object') return;
  if (path.length >= walk.maxDepth) {
    yield { kind: 'too-deep', path, value };
    return;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) yield* visit(value[i], [...path, i], branches.flatMap<SchemaNode>((s) => itemSchema(s, i) ?? []), walk);
  } else {
    for (const [key, field] of Object.entries(value)) yield* visit(field, [...path, key], branches.flatMap<SchemaNode>((s) => propertySchema(s, key) ?? []), walk);
  }
}
