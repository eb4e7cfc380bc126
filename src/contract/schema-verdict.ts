// Judges schema errors by provenance. An error against the spec's view of a schema (src/spec/
// spec-view.ts: the fields of the spec's tables and their JSON types) breaks what the spec
// states: a violation citing its section. An error against the document's full schema only
// differs from a choice of the document: a note citing the nearest x-gap-fill on its path.
import type { Document, SchemaError } from '../spec/index.js';
import { gapFill } from './citations.js';
import type { Citation } from './types.js';

type Node = Record<string, unknown>;

const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

function decodePointer(schemaPath: string): string[] {
  const body = schemaPath.replace(/^#\/?/, '');
  return body === '' ? [] : body.split('/').map((t) => decodeURIComponent(t).replace(/~1/g, '/').replace(/~0/g, '~'));
}

/**
 * The schema nodes from the root to the node that holds the failing keyword, each with its
 * JSON pointer from the root, and that keyword.
 */
export function nodesOnPath(root: Node, schemaPath: string): { nodes: Node[]; pointers: string[]; keyword: string } {
  const tokens = decodePointer(schemaPath);
  const keyword = tokens.pop() ?? '';
  const nodes: Node[] = [root];
  const pointers: string[] = [''];
  let at: unknown = root;
  let pointer = '';
  for (const token of tokens) {
    at = (at as Record<string, unknown> | undefined)?.[token];
    pointer += `/${token}`;
    // Containers such as `properties` or a `oneOf` array are walked through but are not schemas.
    if (isNode(at) && !['properties', 'patternProperties', '$defs', 'dependentSchemas'].includes(token)) {
      nodes.push(at);
      pointers.push(pointer);
    }
  }
  return { nodes, pointers, keyword };
}

/** Names the document's shared schemas by identity, so a citation can say `components/schemas/Error`. */
export function componentNames(document: Document): WeakMap<object, string> {
  const names = new WeakMap<object, string>();
  for (const [name, schema] of Object.entries(document.components?.schemas ?? {})) {
    if (isNode(schema)) names.set(schema, `components/schemas/${name}`);
  }
  return names;
}

/** Where in the body an error is: a missing property counts as the place it should be. */
export function errorLocation(error: SchemaError): string {
  return error.keyword === 'required' ? `${error.instancePath}/${String(error.params.missingProperty ?? '')}` : error.instancePath;
}

/** A spec-view error cites what the view says at the failing node (`timestamp is an integer`). */
export function citeSpecError(view: Node, error: SchemaError, fallback: Citation): Citation {
  const { nodes } = nodesOnPath(view, error.schemaPath);
  for (const node of nodes.reverse()) {
    const section = node['x-spec-section'];
    if (typeof section === 'string' && typeof node.description === 'string') return { source: 'spec', ref: section, text: node.description };
  }
  return fallback;
}

/** A node's name: its component, else its nearest named ancestor and the path from there. */
function nameOf(nodes: readonly Node[], pointers: readonly string[], index: number, names: WeakMap<object, string>): string {
  for (let i = index; i >= 0; i--) {
    const name = names.get(nodes[i] ?? {});
    if (name) return `${name}${(pointers[index] ?? '').slice((pointers[i] ?? '').length)}`;
  }
  return `#${pointers[index] ?? ''}`;
}

/** A document-only error cites the nearest gap-fill on its path, else says the constraint is the document's own. */
export function citeDocumentError(root: Node, error: SchemaError, names: WeakMap<object, string>): Citation {
  const { nodes, pointers, keyword } = nodesOnPath(root, error.schemaPath);
  const last = nodes.length - 1;
  if (keyword === 'required') {
    // A property the document added (an inline schema with its own gap-fill) may be missing as a note.
    const missing = String(error.params.missingProperty ?? '');
    const properties = nodes[last]?.properties;
    const property = isNode(properties) ? properties[missing] : undefined;
    if (isNode(property) && !names.has(property) && typeof property['x-gap-fill'] === 'string') {
      return gapFill(`${nameOf(nodes, pointers, last, names)}/properties/${missing}`, property['x-gap-fill']);
    }
  }
  for (let i = last; i >= 0; i--) {
    const sentence = nodes[i]?.['x-gap-fill'];
    if (typeof sentence === 'string') return gapFill(nameOf(nodes, pointers, i, names), sentence);
  }
  return gapFill(nameOf(nodes, pointers, last, names), `The spec's tables state fields and their JSON types only; the document's schema adds this ${keyword}.`);
}
