// The body matches the documented schema, judged by provenance: failing the spec's view of a
// schema (src/spec/spec-view.ts: the fields of the spec's tables and their JSON types) is a
// violation citing its section; failing only the document's own constraints is a note citing
// the nearest x-gap-fill. Hostile answers are judged within bounds (the first items, the first errors).
import { type SchemaError, type ObservedResponse, type SpecValidator, type Document, responseSpecView } from '../../spec/index.js';
import { textHead } from '../../shared/text-head.js';
import { gapFill, citeOperation, citeResponse, failure, inconclusive, defineCheck } from './check.js';
import type { Citation, Exchange, Failure, Verdict } from '../types.js';
import { responseProblems } from './response-checks.js';

/** Errors judged per answer at most: a few pages of wrong records, far more than a reader needs. */
// Ajv reports every error of every record (tens of thousands for a megabyte of wrong records): only
// the first errors and records are judged, and a check says how many more there were.
export const MAX_SCHEMA_ERRORS = 200;

export interface LeftOut {
  /** Schema errors found but not passed on. */
  readonly errors: number;
  /** Items of a list that were not validated at all, and how many were. */
  readonly items: number;
  readonly checkedItems: number;
}

const leftOut = new WeakMap<object, LeftOut>();

/** What was left out of a list of errors (or of the problem that holds them), if anything. */
export function leftOutOf(key: object | undefined): LeftOut | undefined {
  return key ? leftOut.get(key) : undefined;
}

export function markLeftOut<T extends object>(key: T, what: LeftOut | undefined): T {
  if (what && (what.errors > 0 || what.items > 0)) leftOut.set(key, what);
  return key;
}

/** The index of the list item an error is in (`/12/agentId` is in item 12), or -1 at the root. */
export function itemOf(error: SchemaError): number {
  const match = /^\/(\d+)(?:\/|$)/.exec(error.instancePath);
  return match ? Number(match[1]) : -1;
}

/**
 * The first errors, cut before the item the cap falls in: Ajv reports a `oneOf` after the
 * errors of its branches, so a record cut in the middle would show both branches' errors
 * without the `oneOf` that says which one the record meant.
 */
export function firstErrors(errors: readonly SchemaError[], max = MAX_SCHEMA_ERRORS): SchemaError[] {
  if (errors.length <= max) return [...errors];
  const cutItem = itemOf(errors[max] as SchemaError);
  let end = max;
  if (cutItem >= 0) while (end > 0 && itemOf(errors[end - 1] as SchemaError) === cutItem) end--;
  return errors.slice(0, end > 0 ? end : max);
}

const MAX_MESSAGE = 4096;

export function boundedValidator(validator: SpecValidator, maxItems: number): SpecValidator {
  const itemsLeftOut = (value: unknown): number => (Array.isArray(value) ? Math.max(0, value.length - maxItems) : 0);
  const items = (value: unknown): unknown => (itemsLeftOut(value) > 0 ? (value as unknown[]).slice(0, maxItems) : value);
  const first = (errors: readonly SchemaError[], value: unknown): SchemaError[] => {
    const kept = firstErrors(errors);
    const uncheckedItems = itemsLeftOut(value);
    return markLeftOut(kept, { errors: errors.length - kept.length, items: uncheckedItems, checkedItems: uncheckedItems > 0 ? maxItems : 0 });
  };
  return {
    ajv: validator.ajv,
    responseFor: (operationId, status) => validator.responseFor(operationId, status),
    problemWords: validator.problemWords,
    validate: (schema, value) => first(validator.validate(schema, items(value)), value),
    validateNamed: (name, value) => first(validator.validateNamed(name, items(value)), value),
    checkResponse: (operationId, response) => {
      // The validator parses the body itself: a list too long is handed over as its first items.
      const json = (response as ObservedResponse & { json?: unknown }).json;
      const bounded = itemsLeftOut(json) > 0 ? { ...response, body: JSON.stringify(items(json)) } : response;
      const problems = validator.checkResponse(operationId, bounded).map((problem) => {
        const kept = { ...problem, message: textHead(problem.message, MAX_MESSAGE) };
        if (!problem.schemaErrors) return kept;
        const errors = first(problem.schemaErrors, json);
        return markLeftOut({ ...kept, schemaErrors: errors }, leftOutOf(errors));
      });
      // Items never validated leave even an answer without problems unjudged.
      return markLeftOut(problems, { errors: 0, items: itemsLeftOut(json), checkedItems: maxItems });
    },
  };
}

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

/** The value at a JSON pointer (`` for the value itself). */
export function valueAt(value: unknown, pointer: string): unknown {
  let at: unknown = value;
  for (const raw of pointer.split('/').slice(1)) {
    const token = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    at = typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[token] : undefined;
  }
  return at;
}

/** The branch a discriminated value names: the one whose discriminator property has that `const`. */
function discriminatedBranch(node: Node, value: unknown): number | undefined {
  const discriminator = node.discriminator as { propertyName?: string } | undefined;
  const branches = node.oneOf;
  if (!discriminator?.propertyName || !Array.isArray(branches)) return undefined;
  const tag = valueAt(value, `/${discriminator.propertyName}`);
  const index = branches.findIndex((b) => ((b as Node).properties as Record<string, Node> | undefined)?.[discriminator.propertyName ?? '']?.const === tag);
  return index >= 0 ? index : undefined;
}

/** The pointer and each pointer it is under, itself first: `/a/0` → `/a/0`, `/a`, `""`. */
function withAncestors(pointer: string): string[] {
  const out = [pointer];
  for (let at = pointer; at !== ''; ) {
    at = at.slice(0, Math.max(0, at.lastIndexOf('/')));
    out.push(at);
  }
  return out;
}

/**
 * The errors under each failing `anyOf` and `oneOf` (those of its branches, at its value or
 * below), found by looking each error's schema and value paths up rather than comparing every
 * error with every combinator: a list of wrong records has a combinator error per record.
 */
function membersOf(errors: readonly SchemaError[]): Map<SchemaError, SchemaError[]> {
  const combinators = new Map<string, SchemaError[]>();
  const keyOf = (schemaPath: string, instancePath: string): string => `${schemaPath}\u0000${instancePath}`;
  for (const e of errors) {
    if (e.keyword !== 'anyOf' && e.keyword !== 'oneOf') continue;
    const key = keyOf(e.schemaPath, e.instancePath);
    combinators.set(key, [...(combinators.get(key) ?? []), e]);
  }
  const members = new Map<SchemaError, SchemaError[]>();
  if (combinators.size === 0) return members;
  for (const e of errors) {
    const values = withAncestors(e.instancePath);
    // Each proper prefix of the schema path that ends where a `/` begins.
    for (let i = e.schemaPath.lastIndexOf('/'); i > 0; i = e.schemaPath.lastIndexOf('/', i - 1)) {
      for (const value of values) {
        for (const combinator of combinators.get(keyOf(e.schemaPath.slice(0, i), value)) ?? []) {
          const list = members.get(combinator);
          if (list) list.push(e);
          else members.set(combinator, [e]);
        }
      }
    }
  }
  return members;
}

/** The branch of a combinator (`…/anyOf`) an error under it is in. */
const branchOf = (combinator: SchemaError, e: SchemaError): number => Number(e.schemaPath.slice(combinator.schemaPath.length + 1).split('/')[0]);

/** The one branch with the fewest errors, if one stands out. */
function fewest(combinator: SchemaError, inside: readonly SchemaError[]): number | undefined {
  const counts = new Map<number, number>();
  for (const e of inside) counts.set(branchOf(combinator, e), (counts.get(branchOf(combinator, e)) ?? 0) + 1);
  const least = Math.min(...counts.values());
  const best = [...counts].filter(([, n]) => n === least);
  return best.length === 1 ? best[0]?.[0] : undefined;
}

/**
 * Keeps, for each failing `oneOf`, only the errors of the branch the value meant (by the
 * discriminator, else the one branch with the fewest errors); keeps the `oneOf` error itself
 * when no branch stands out. A failing `anyOf` keeps its branch with the fewest errors when
 * one stands out, else all. The `if` of an if/then names no problem of its own. Each error is
 * looked at once for each combinator it is under, so the work grows with the number of errors.
 */
export function relevantErrors(root: Node, errors: readonly SchemaError[], value: unknown): SchemaError[] {
  const candidates = errors.filter((e) => e.keyword !== 'if');
  const kept = new Set(candidates);
  const members = membersOf(candidates);
  const inside = (combinator: SchemaError): SchemaError[] => (members.get(combinator) ?? []).filter((e) => kept.has(e));
  for (const anyOf of candidates.filter((e) => e.keyword === 'anyOf')) {
    const branch = fewest(anyOf, inside(anyOf));
    if (branch === undefined) continue;
    kept.delete(anyOf);
    for (const e of inside(anyOf)) if (branchOf(anyOf, e) !== branch) kept.delete(e);
  }
  for (const oneOf of candidates.filter((e) => e.keyword === 'oneOf' && kept.has(e))) {
    const under = inside(oneOf);
    if (under.length === 0) continue;
    const { nodes } = nodesOnPath(root, `${oneOf.schemaPath}/x`);
    const chosen = discriminatedBranch(nodes.at(-1) ?? {}, valueAt(value, oneOf.instancePath)) ?? fewest(oneOf, under);
    if (chosen === undefined) {
      for (const e of under) kept.delete(e);
      continue;
    }
    for (const e of under) if (branchOf(oneOf, e) !== chosen) kept.delete(e);
    if (under.some((e) => branchOf(oneOf, e) === chosen)) kept.delete(oneOf);
  }
  return candidates.filter((e) => kept.has(e));
}

const namesByDocument = new WeakMap<Document, WeakMap<object, string>>();
function namesOf(document: Document): WeakMap<object, string> {
  let names = namesByDocument.get(document);
  if (!names) {
    names = componentNames(document);
    namesByDocument.set(document, names);
  }
  return names;
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

interface Judged {
  readonly error: SchemaError;
  readonly citation: Citation;
  readonly verdict: Verdict;
}

/** One failure per citation: the same problem in 200 records is one finding. */
function grouped(judged: readonly Judged[]): { citation: Citation; verdict: Verdict; messages: Map<string, number> }[] {
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
function withinSpecErrors(errors: readonly SchemaError[], specErrors: readonly SchemaError[], specLeftOut: LeftOut | undefined): SchemaError[] {
  const last = specErrors.at(-1);
  const lastItem = last ? itemOf(last) : -1;
  if (!specLeftOut?.errors || lastItem < 0) return [...errors];
  return errors.filter((e) => itemOf(e) <= lastItem);
}

/** What the bounded validator left unjudged, said in words (empty when nothing was). */
function unjudged(errors: number, items: LeftOut | undefined): string {
  const parts: string[] = [];
  if (errors > 0) parts.push(`${errors} more schema error(s) not judged (the runner judges about the first ${MAX_SCHEMA_ERRORS} of an answer)`);
  if (items?.items) parts.push(`the ${items.items} item(s) after the first ${items.checkedItems} not checked`);
  return parts.join('; ');
}

/**
 * The body matches the documented schema. Failing the spec's view of the schema (the fields
 * and JSON types of the spec's tables) is a violation; failing only the document's own
 * constraints is a note.
 */
export const responseSchema = defineCheck({
  name: 'response-schema',
  title: 'The body matches the documented schema',
  run(exchange: Exchange, context) {
    const response = exchange.response;
    if (!response) return [];
    const op = context.spec.operation(exchange.operationId);
    const failures: Failure[] = [];
    const problems = responseProblems(exchange, context);
    const itemsLeftOut = leftOutOf(problems);
    let leftOutErrors = 0;
    for (const problem of problems) {
      if (problem.kind === 'unexpected-body') {
        failures.push(failure(this, exchange, { message: problem.message, expected: 'no body', citation: citeResponse(op, response.status) }));
      }
      if (problem.kind !== 'schema' || !problem.schemaErrors) continue;
      const documented = context.validator.responseFor(op.operationId, response.status);
      const root = documented?.content?.['application/json']?.schema as Node | undefined;
      if (!root) continue;
      const view = responseSpecView(documented) as Node | undefined;
      const specFound = view ? context.validator.validate(view, response.json) : [];
      const specErrors = view ? relevantErrors(view, specFound, response.json) : [];
      const documentErrors = withinSpecErrors(problem.schemaErrors, specFound, leftOutOf(specFound));
      leftOutErrors += (leftOutOf(problem)?.errors ?? 0) + problem.schemaErrors.length - documentErrors.length;
      const judged: Judged[] = [
        ...specErrors.map((error) => ({ error, verdict: 'violation' as const, citation: citeSpecError(view ?? {}, error, citeOperation(op)) })),
        ...relevantErrors(root, documentErrors, response.json)
          .filter((error) => !explained(error, specErrors))
          .map((error) => ({ error, verdict: 'note' as const, citation: citeDocumentError(root, error, namesOf(context.spec.document)) })),
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
    const rest = unjudged(leftOutErrors, itemsLeftOut);
    if (!rest) return failures;
    // A violation among what was judged stands; without one, what was not judged may hold one.
    if (itemsLeftOut?.items && !failures.some((f) => f.verdict === 'violation')) {
      return inconclusive(`${rest}${failures.length > 0 ? `; ${failures.length} note(s) on the items checked` : ''}`);
    }
    return failures.map((f) => ({ ...f, message: `${f.message}; ${rest}` }));
  },
});
