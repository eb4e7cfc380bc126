// Ajv reports every branch of a failing `oneOf`; a reader wants the branch the value meant.
import type { SchemaError } from '../spec/index.js';
import { nodesOnPath } from './schema-verdict.js';

type Node = Record<string, unknown>;

function valueAt(value: unknown, pointer: string): unknown {
  if (pointer === '') return value;
  let at: unknown = value;
  for (const raw of pointer.slice(1).split('/')) {
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
