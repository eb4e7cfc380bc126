// What the source spec itself says of a body, derived from the document: the fields its
// tables list (`x-spec-section` on the property) with their JSON types, and nothing the
// document added (formats, patterns, enums, fields of its own, shapes of gap-filled answers).
// A body that fails this view breaks the spec; one that fails only the full schema differs
// from a choice of the document.
import type { Response, Schema } from './operations.js';

type Node = Record<string, unknown>;

const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);
const typesOf = (node: Node): unknown[] => (Array.isArray(node.type) ? node.type : [node.type]);
const withArticle = (type: unknown): string => `${/^[aeiou]/.test(String(type)) ? 'an' : 'a'} ${String(type)}`;
const sectionOf = (node: Node, inherited: string | undefined): string | undefined =>
  typeof node['x-spec-section'] === 'string' ? node['x-spec-section'] : inherited;

function withSection(view: Node, section: string | undefined): Node {
  return section ? { 'x-spec-section': section, ...view } : view;
}

/** A `oneOf` told apart by a property's `const` (the event log record): each tag picks its branch's view; another must fit one of them. */
function discriminated(node: Node, section: string | undefined, name: string): Node | undefined {
  const property = isNode(node.discriminator) ? node.discriminator.propertyName : undefined;
  if (typeof property !== 'string' || !Array.isArray(node.oneOf)) return undefined;
  const branches = node.oneOf.filter(isNode).map((branch) => {
    const tag = isNode(branch.properties) && isNode(branch.properties[property]) ? branch.properties[property].const : undefined;
    return { tag, view: derive(branch, sectionOf(node, section), name) };
  });
  let view: Node = { anyOf: branches.map((b) => b.view) };
  for (const { tag, view: then } of [...branches].reverse()) {
    if (tag === undefined) continue;
    view = { if: { type: 'object', properties: { [property]: { const: tag } }, required: [property] }, then, else: view };
  }
  return withSection(view, sectionOf(node, section));
}

function derive(node: Node, inherited: string | undefined, name: string): Node {
  const section = sectionOf(node, inherited);
  const choice = discriminated(node, inherited, name);
  if (choice) return choice;
  if (node.type === undefined) return withSection({ description: `${name}: any value` }, section);
  const view: Node = { type: node.type, description: `${name} is ${typesOf(node).map(withArticle).join(' or ')}` };
  if (typesOf(node).includes('object') && isNode(node.properties)) {
    const listed = Object.entries(node.properties).filter((e): e is [string, Node] => isNode(e[1]) && typeof e[1]['x-spec-section'] === 'string');
    view.properties = Object.fromEntries(
      listed.map(([key, property]) => [
        key,
        property['x-spec-untyped'] === true
          ? withSection({ description: `${key} is listed without a type` }, sectionOf(property, section))
          : derive(property, section, key),
      ]),
    );
    const names = new Set(listed.map(([key]) => key));
    const required = (Array.isArray(node.required) ? node.required : []).filter((key): key is string => typeof key === 'string' && names.has(key));
    if (required.length > 0) view.required = required;
    view.description = listed.length > 0 ? `${name} is an object with the fields ${[...names].join(', ')}` : `${name} is an object`;
  }
  if (typesOf(node).includes('array') && isNode(node.items)) view.items = derive(node.items, section, `each item of ${name}`);
  return withSection(view, section);
}

// Views of the dereferenced document's schemas by identity: each is derived (and compiled) once.
const views = new WeakMap<object, Schema>();

/** The spec's view of a schema of the (dereferenced) document. */
export function specView(schema: Schema, name = 'the body'): Schema {
  let view = views.get(schema);
  if (!view) {
    view = derive(schema as Node, undefined, name) as Schema;
    views.set(schema, view);
  }
  return view;
}

/** The spec's view of a documented JSON answer; undefined when the response has an `x-gap-fill` (the spec shows no body: 4.1, 4.3, every error). */
export function responseSpecView(response: Response | undefined): Schema | undefined {
  const schema = response?.content?.['application/json']?.schema;
  if (!schema || typeof (response as Node)['x-gap-fill'] === 'string') return undefined;
  return specView(schema as Schema);
}

/** Whether the spec describes the body of this documented answer (its tables: 4.2, 4.4, 4.6). */
export function specDescribesBody(response: Response | undefined): boolean {
  return responseSpecView(response) !== undefined;
}
