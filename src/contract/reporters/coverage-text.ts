// The coverage section in words, shared by the reporters: totals, one block per operation, what
// did not run and why, and the --min-coverage verdict.
import type { Coverage, OperationCoverage } from '../run/coverage.js';

const list = (items: readonly string[]): string => (items.length > 0 ? items.join(' ') : '-');

/** One operation's coverage as short texts, one per aspect. */
export function operationCells(o: OperationCoverage): { seen: string; notSeen: string; auth: string; parameters: string; sections: string } {
  const undocumented = o.undocumented.length > 0 ? ` (undocumented: ${o.undocumented.join(' ')})` : '';
  const auth = o.auth.map((a) => {
    if (a.method === 'none') return a.valid ? 'none' : 'none (not sent)';
    const tried = [...(a.valid ? ['valid'] : []), ...(a.wrong ? ['wrong'] : [])];
    return `${a.method} (${tried.length > 0 ? tried.join(', ') : 'not tried'})`;
  });
  const parameters = o.parameters.map((p) => (p.exercised ? p.name : `${p.name} (not sent)`));
  const sections = o.sections.map((s) => (s.covered ? s.section : `${s.section} (not covered)`));
  return {
    seen: `${list(o.statuses.filter((s) => s.seen).map((s) => s.status))}${undocumented}`,
    notSeen: list(o.statuses.filter((s) => !s.seen).map((s) => s.status)),
    auth: list(auth),
    parameters: list(parameters),
    sections: list(sections),
  };
}

export function coverageTotals(c: Coverage): string {
  const { operations, statuses, sections } = c.totals;
  return (
    `${operations.covered} of ${operations.of} operations answered; ${statuses.covered} of ${statuses.of} documented statuses seen ` +
    `(${statuses.percent} %); ${sections.covered} of ${sections.of} spec sections covered.`
  );
}

/** The --min-coverage verdict, when one was asked for. */
export function minimumLine(c: Coverage): string | undefined {
  if (c.minimum === undefined) return undefined;
  const where = c.belowMinimum ? 'below the minimum: the run fails' : 'at least the minimum';
  return `--min-coverage ${c.minimum}: ${c.totals.statuses.percent} % of the documented statuses seen, ${where}.`;
}

export function notRunLines(c: Coverage): string[] {
  return c.notRun.map((n) => `${n.kind}: ${n.reason} (${n.checks.join(', ')})`);
}

/** The coverage in words: totals, what did not run, the minimum; with `perOperation`, each operation's too. */
export function coverageText(c: Coverage, { perOperation = true } = {}): string {
  const lines = [`Coverage: ${coverageTotals(c)}`];
  for (const o of perOperation ? c.operations : []) {
    const cells = operationCells(o);
    lines.push(`  ${o.operationId}: ${o.requests} requests`);
    lines.push(`    statuses    seen ${cells.seen}; not seen ${cells.notSeen}`);
    if (o.auth.length > 0) lines.push(`    auth        ${cells.auth}`);
    if (o.parameters.length > 0) lines.push(`    query       ${cells.parameters}`);
    if (o.sections.length > 0) lines.push(`    spec        ${cells.sections}`);
  }
  const notRun = notRunLines(c);
  if (notRun.length > 0) lines.push('Not run:', ...notRun.map((l) => `  ${l}`));
  const minimum = minimumLine(c);
  if (minimum) lines.push(minimum);
  return lines.join('\n');
}
