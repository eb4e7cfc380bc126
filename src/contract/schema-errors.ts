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

/**
 * Keeps, for each failing `oneOf`, only the errors of the branch the value meant (by the
 * discriminator, else the one branch with the fewest errors); keeps the `oneOf` error itself
 * when no branch stands out. A failing `anyOf` keeps its branch with the fewest errors when
 * one stands out, else all. The `if` of an if/then names no problem of its own.
 */
export function relevantErrors(root: Node, errors: readonly SchemaError[], value: unknown): SchemaError[] {
  let kept = errors.filter((e) => e.keyword !== 'if');
  for (const anyOf of kept.filter((e) => e.keyword === 'anyOf')) {
    const prefix = `${anyOf.schemaPath}/`;
    const under = (e: SchemaError): boolean =>
      e.schemaPath.startsWith(prefix) && (e.instancePath === anyOf.instancePath || e.instancePath.startsWith(`${anyOf.instancePath}/`));
    const inside = kept.filter(under);
    const branchOf = (e: SchemaError): number => Number(e.schemaPath.slice(prefix.length).split('/')[0]);
    const counts = new Map<number, number>();
    for (const e of inside) counts.set(branchOf(e), (counts.get(branchOf(e)) ?? 0) + 1);
    const least = Math.min(...counts.values());
    const best = [...counts].filter(([, n]) => n === least);
    if (best.length !== 1 || !best[0]) continue;
    const branch = best[0][0];
    kept = kept.filter((e) => e !== anyOf && (!under(e) || branchOf(e) === branch));
  }
  const oneOfs = kept.filter((e) => e.keyword === 'oneOf');
  for (const oneOf of oneOfs) {
    const prefix = `${oneOf.schemaPath}/`;
    const under = (e: SchemaError): boolean =>
      e.schemaPath.startsWith(prefix) && (e.instancePath === oneOf.instancePath || e.instancePath.startsWith(`${oneOf.instancePath}/`));
    const inside = kept.filter(under);
    if (inside.length === 0) continue;
    const branchOf = (e: SchemaError): number => Number(e.schemaPath.slice(prefix.length).split('/')[0]);
    const { nodes } = nodesOnPath(root, `${oneOf.schemaPath}/x`);
    const node = nodes.at(-1) ?? {};
    let chosen = discriminatedBranch(node, valueAt(value, oneOf.instancePath));
    if (chosen === undefined) {
      const counts = new Map<number, number>();
      for (const e of inside) counts.set(branchOf(e), (counts.get(branchOf(e)) ?? 0) + 1);
      const least = Math.min(...counts.values());
      const best = [...counts].filter(([, n]) => n === least);
      if (best.length === 1 && best[0]) chosen = best[0][0];
    }
    if (chosen === undefined) {
      kept = kept.filter((e) => !under(e));
    } else {
      const branch = chosen;
      const fromBranch = inside.filter((e) => branchOf(e) === branch);
      kept = kept.filter((e) => !under(e) || branchOf(e) === branch);
      if (fromBranch.length > 0) kept = kept.filter((e) => e !== oneOf);
    }
  }
  return kept;
}
