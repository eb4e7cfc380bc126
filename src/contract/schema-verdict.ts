// Decides whether a schema error is a spec violation or a note, by walking Ajv's
// schemaPath through the dereferenced schema and reading the annotations on the way.
import type { Document, SchemaError } from '../spec/index.js';
import { gapFill } from './citations.js';
import type { Citation } from './types.js';

type Node = Record<string, unknown>;

const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

function decodePointer(schemaPath: string): string[] {
  const body = schemaPath.replace(/^#\/?/, '');
  return body === '' ? [] : body.split('/').map((t) => decodeURIComponent(t).replace(/~1/g, '/').replace(/~0/g, '~'));
}

/** The schema nodes from the root to the node that holds the failing keyword, and that keyword. */
export function nodesOnPath(root: Node, schemaPath: string): { nodes: Node[]; keyword: string } {
  const tokens = decodePointer(schemaPath);
  const keyword = tokens.pop() ?? '';
  const nodes: Node[] = [root];
  let at: unknown = root;
  for (const token of tokens) {
    at = (at as Record<string, unknown> | undefined)?.[token];
    // Containers such as `properties` or a `oneOf` array are walked through but are not schemas.
    if (isNode(at) && !['properties', 'patternProperties', '$defs', 'dependentSchemas'].includes(token)) nodes.push(at);
  }
  return { nodes, keyword };
}

/** Names the document's shared schemas by identity, so a citation can say `components/schemas/Error`. */
export function componentNames(document: Document): WeakMap<object, string> {
  const names = new WeakMap<object, string>();
  for (const [name, schema] of Object.entries(document.components?.schemas ?? {})) {
    if (isNode(schema)) names.set(schema, `components/schemas/${name}`);
  }
  return names;
}

// Keywords that restate the spec's field tables (which fields, which JSON types): a node's
// x-spec-section outranks its x-gap-fill for them. For formats, patterns, enums, shapes
// of gap-filled objects… the gap-fill outranks.
const STRUCTURAL = new Set(['required', 'type']);

export interface SchemaVerdictInput {
  readonly root: Node;
  readonly error: SchemaError;
  readonly names: WeakMap<object, string>;
  /** Used when no node on the path is annotated: the operation's own citation. */
  readonly fallback: Citation;
}

function citeNode(node: Node, names: WeakMap<object, string>, where: string, preferSpec: boolean): Citation | undefined {
  const section = node['x-spec-section'];
  const sentence = node['x-gap-fill'];
  const ref = names.get(node) ?? where;
  const spec: Citation | undefined = typeof section === 'string' ? { source: 'spec', ref: section, text: `the shape of ${ref}` } : undefined;
  const gap = typeof sentence === 'string' ? gapFill(ref, sentence) : undefined;
  return preferSpec ? (spec ?? gap) : (gap ?? spec);
}

export function citeSchemaError({ root, error, names, fallback }: SchemaVerdictInput): Citation {
  const { nodes, keyword } = nodesOnPath(root, error.schemaPath);
  const structural = STRUCTURAL.has(keyword);
  if (keyword === 'required') {
    // A property the document added (an inline schema with its own gap-fill) may be missing as a note.
    const missing = String(error.params.missingProperty ?? '');
    const properties = nodes.at(-1)?.properties;
    const property = isNode(properties) ? properties[missing] : undefined;
    if (isNode(property) && !names.has(property) && typeof property['x-gap-fill'] === 'string') {
      return gapFill(`${error.schemaPath.replace(/\/required$/, '')}/properties/${missing}`, property['x-gap-fill']);
    }
  }
  for (let i = nodes.length - 1; i >= 0; i--) {
    const node = nodes[i];
    if (!node) continue;
    const cited = citeNode(node, names, error.schemaPath, structural);
    if (cited) return cited;
  }
  return fallback;
}
