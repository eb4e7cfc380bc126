import type { CharSet } from './char-set.js';

// The parsed form of a JavaScript regex that the RE2 translation (regex-translate.ts) works on:
// read by regex-parse.ts, spelled out for RE2 by regex-emit.ts. Also how both refuse what RE2
// cannot express the same way.

export type Node =
  | { readonly kind: 'set'; readonly set: CharSet; readonly literal?: number }
  | { readonly kind: 'class'; readonly re2: string } // a class with \p{...}, spelled for RE2
  | { readonly kind: 'assert'; readonly what: '^' | '$' | 'b' | 'B' }
  | { readonly kind: 'group'; readonly alternatives: Node[][] }
  | { readonly kind: 'repeat'; readonly node: Node; readonly min: number; readonly max: number };

/** What the translation cannot express: its message says why. */
export class Unsupported extends Error {}
export const refuse = (problem: string): never => {
  throw new Unsupported(problem);
};

/** The longest run of literal characters a sequence holds (as in the source, before case rules). */
export function longestLiteral(items: readonly Node[]): number[] {
  let best: number[] = [];
  let run: number[] = [];
  for (const node of items) {
    if (node.kind === 'set' && node.literal !== undefined) run.push(node.literal);
    else if (node.kind !== 'assert') run = [];
    if (run.length > best.length) best = run.slice();
  }
  return best;
}
