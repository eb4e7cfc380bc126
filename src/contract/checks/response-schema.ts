// The body matches the documented schema, judged by provenance: failing the spec's view of a
// schema (src/spec/spec-view.ts: the fields of the spec's tables and their JSON types) is a
// violation citing its section; failing only the document's own constraints is a note citing
// the nearest x-gap-fill. Hostile answers are judged within bounds (the first items, the first errors).
import { type SchemaError, type Document, responseSpecView } from '../../spec/index.js';
import { gapFill, citeOperation, citeResponse, failure, inconclusive, defineCheck, valueAt } from './check.js';
import type { Citation, Exchange, Failure, Verdict } from '../types.js';
import { MAX_SCHEMA_ERRORS, checkedItems, responseProblems } from './response-checks.js';


/** The index of the list item an error is in (`/12/agentId` is in item 12), or -1 at the root. */
export function itemOf(error: SchemaError): number {
  const match = /^\/(\d+)(?:\/|$)/.exec(error.instancePath);
  return match ? Number(match[1]) : -1;
}

type Node = Record<string, unknown>;

const isNode = (v: unknown): v is Node => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The schema nodes from the root to the node that holds the failing keyword, each with its
 * JSON pointer from the root, and that keyword.
 */
export function nodesOnPath(root: Node, schemaPath: string): { nodes: Node[]; pointers: string[]; keyword: string } {
  const tokens = schemaPath.replace(/^#\/?/, '').split('/').filter((t) => t !== '').map((t) => decodeURIComponent(t).replace(/~1/g, '/').replace(/~0/g, '~'));
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
  return new WeakMap(Object.entries(document.components?.schemas ?? {}).flatMap(([name, schema]) => (isNode(schema) ? [[schema, `components/schemas/${name}`]] : [])));
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

/** The branch of a oneOf its discriminator names for a value; -1 for none. */
function meantBranch(node: Node | undefined, value: unknown): number {
  const name = (node?.discriminator as { propertyName?: string } | undefined)?.propertyName;
  const branches = Array.isArray(node?.oneOf) ? (node.oneOf as Node[]) : [];
  return name === undefined ? -1 : branches.findIndex((b) => (b.properties as Record<string, Node> | undefined)?.[name]?.const === valueAt(value, `/${name}`));
}

/**
 * Of a failing oneOf or anyOf, only the errors of the branch the value meant (the one a discriminator
 * names, else the one branch with the fewest errors), or else its own error alone. The `if` of an
 * if/then names no problem of its own.
 */
export function relevantErrors(root: Node, errors: readonly SchemaError[], value: unknown): SchemaError[] {
  const kept = errors.filter((e) => e.keyword !== 'if');
  const combinators = new Map(kept.filter((e) => e.keyword === 'oneOf' || e.keyword === 'anyOf').map((e) => [`${e.schemaPath}\0${e.instancePath}`, e]));
  // The branch of each failing combinator an error is in, found by the oneOf's schema path and each place above the error.
  const branches = new Map<SchemaError, [string, number][]>();
  const counts = new Map<string, Map<number, number>>();
  for (const e of combinators.size > 0 ? kept : []) {
    for (const m of e.schemaPath.matchAll(/\/(?:oneOf|anyOf)\/(\d+)\//g)) {
      for (let at = e.instancePath; ; at = at.slice(0, Math.max(0, at.lastIndexOf('/')))) {
        const key = `${e.schemaPath.slice(0, m.index + '/oneOf'.length)}\0${at}`;
        if (combinators.has(key)) {
          branches.set(e, [...(branches.get(e) ?? []), [key, Number(m[1])]]);
          const count = counts.get(key) ?? new Map<number, number>();
          counts.set(key, count.set(Number(m[1]), (count.get(Number(m[1])) ?? 0) + 1));
          break;
        }
        if (at === '') break;
      }
    }
  }
  const meant = new Map<string, number>();
  for (const [key, e] of combinators) {
    const count = [...(counts.get(key) ?? [])];
    const fewest = count.filter(([, n]) => n === Math.min(...count.map(([, k]) => k)));
    const tagged = meantBranch(nodesOnPath(root, `${e.schemaPath}/x`).nodes.at(-1), valueAt(value, e.instancePath));
    meant.set(key, tagged >= 0 ? tagged : fewest.length === 1 ? (fewest[0]?.[0] ?? -1) : -1);
  }
  return kept.filter((e) => (combinators.has(`${e.schemaPath}\0${e.instancePath}`) ? meant.get(`${e.schemaPath}\0${e.instancePath}`) === -1 : (branches.get(e) ?? []).every(([key, branch]) => meant.get(key) === branch)));
}

// Ajv's message with the value it wanted, record positions generalised: /12/agentId becomes /[n]/agentId.
function describe(error: SchemaError): string {
  const p = error.params;
  const detail =
    p.allowedValue !== undefined ? ` ${JSON.stringify(p.allowedValue)}`
    : Array.isArray(p.allowedValues) ? ` ${JSON.stringify(p.allowedValues)}`
    : typeof p.additionalProperty === 'string' ? ` ("${p.additionalProperty}")`
    : '';
  return `${error.message.replace(/\/\d+(?=\/|\s)/g, '/[n]')}${detail}`;
}

const COMPOSITE = new Set(['oneOf', 'anyOf', 'allOf', 'not']);


/** Document errors the spec errors already explain: at or under a spec error's place (or a composite above one). */
function explained(error: SchemaError, specErrors: readonly SchemaError[]): boolean {
  const at = errorLocation(error);
  return specErrors.some((s) => {
    const place = errorLocation(s);
    return at === place || at.startsWith(`${place}/`) || (COMPOSITE.has(error.keyword) && (place === at || place.startsWith(`${at}/`)));
  });
}

/** One failure per citation: the same problem in 200 records is one finding. */
function grouped(judged: readonly { error: SchemaError; citation: Citation; verdict: Verdict }[]) {
  const groups = new Map<string, { citation: Citation; verdict: Verdict; messages: Map<string, number> }>();
  for (const { error, citation, verdict } of judged) {
    const key = `${verdict}|${citation.source}|${citation.ref}|${citation.text}`;
    const group = groups.get(key) ?? { citation, verdict, messages: new Map<string, number>() };
    const message = describe(error);
    group.messages.set(message, (group.messages.get(message) ?? 0) + 1);
    groups.set(key, group);
  }
  return [...groups.values()];
}

/**
 * With the spec view's errors cut short, the document's errors past the last item they reach
 * are not explained by them: those are left unjudged too, not reported as notes.
 */
function withinSpecErrors(errors: readonly SchemaError[], specErrors: readonly SchemaError[], specCut: boolean): SchemaError[] {
  const last = specErrors.at(-1);
  const lastItem = last ? itemOf(last) : -1;
  return !specCut || lastItem < 0 ? [...errors] : errors.filter((e) => itemOf(e) <= lastItem);
}

/** What was left unjudged, said in words (empty when nothing was). */
function unjudged(errors: number, items: number, checked: number): string {
  return [
    ...(errors > 0 ? [`${errors} more schema error(s) not judged (the runner judges about the first ${MAX_SCHEMA_ERRORS} of an answer)`] : []),
    ...(items > 0 ? [`the ${items} item(s) after the first ${checked} not checked`] : []),
  ].join('; ');
}

export const responseSchema = defineCheck({
  name: 'response-schema',
  title: 'The body matches the documented schema',
  run(exchange: Exchange, context) {
    const response = exchange.response;
    if (!response) return [];
    const op = context.spec.operation(exchange.operationId);
    const failures: Failure[] = [];
    const problems = responseProblems(exchange, context);
    const max = checkedItems(context);
    const json = Array.isArray(response.json) ? response.json.slice(0, max) : response.json;
    const itemsLeftOut = Array.isArray(response.json) ? Math.max(0, response.json.length - max) : 0;
    let leftOutErrors = 0;
    for (const problem of problems) {
      if (problem.kind === 'unexpected-body') {
        failures.push(failure(this, exchange, { message: problem.message, expected: 'no body', citation: citeResponse(op, response.status) }));
      }
      if (problem.kind !== 'schema' || !problem.schemaErrors) continue;
      const documented = context.validator.responseFor(op.operationId, response.status);
      const root = documented?.content?.['application/json']?.schema as Node | undefined;
      if (!root) continue;
      // Built only for an answer the schema refused: most answers need no names.
      const names = componentNames(context.spec.document);
      const view = responseSpecView(documented) as Node | undefined;
      const specFound = view ? context.validator.validate(view, json) : [];
      const specKept = specFound.slice(0, MAX_SCHEMA_ERRORS);
      const specErrors = view ? relevantErrors(view, specKept, json) : [];
      const documentErrors = withinSpecErrors(problem.schemaErrors, specKept, specFound.length > specKept.length);
      leftOutErrors += (problem.errorCount ?? problem.schemaErrors.length) - documentErrors.length;
      const judged = [
        ...specErrors.map((error) => ({ error, verdict: 'violation' as const, citation: citeSpecError(view ?? {}, error, citeOperation(op)) })),
        ...relevantErrors(root, documentErrors, json)
          .filter((error) => !explained(error, specErrors))
          .map((error) => ({ error, verdict: 'note' as const, citation: citeDocumentError(root, error, names) })),
      ];
      for (const { citation, verdict, messages } of grouped(judged)) {
        const listed = [...messages].slice(0, 4).map(([m, n]) => (n > 1 ? `${m} (${n} times)` : m));
        const more = messages.size > 4 ? `; and ${messages.size - 4} more` : '';
        failures.push(
          failure(this, exchange, {
            message: `${listed.join('; ')}${more}`,
            expected:
              verdict === 'violation'
                ? `the body of a ${response.status} has the fields and JSON types of the spec's table (${citation.text})`
                : `the body of a ${response.status} matches the document's schema (${citation.ref})`,
            citation,
            verdict,
          }),
        );
      }
    }
    const rest = unjudged(leftOutErrors, itemsLeftOut, max);
    if (!rest) return failures;
    // A violation among what was judged stands; without one, what was not judged may hold one.
    if (itemsLeftOut > 0 && !failures.some((f) => f.verdict === 'violation')) {
      return inconclusive(`${rest}${failures.length > 0 ? `; ${failures.length} note(s) on the items checked` : ''}`);
    }
    return failures.map((f) => ({ ...f, message: `${f.message}; ${rest}` }));
  },
});
