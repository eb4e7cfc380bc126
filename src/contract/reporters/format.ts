// Text shared by the reporters: one failure with its request, the summary table.
import { formatCitation } from '../citations.js';
import { statusOf, type Outcome, type RunResult } from '../run/results.js';
import type { DriftReport } from '../differential.js';
import type { ReportedFailure } from '../types.js';

export function formatFailure(f: ReportedFailure): string {
  const got = f.actual.error ? `no answer: ${f.actual.error}` : `${f.actual.status ?? '?'} ${f.actual.body ?? ''}`.trim();
  return [
    `${f.verdict === 'violation' ? 'VIOLATION' : 'NOTE'} ${f.operationId} · ${f.check}: ${f.title}`,
    `  found:    ${f.message}`,
    `  expected: ${f.expected}`,
    `  cites:    ${formatCitation(f.citation)}`,
    `  request:  ${f.curl}`,
    `  got:      ${got}`,
  ].join('\n');
}

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ').trimEnd()).join('\n');
}

const MARK = { passed: 'ok', failed: 'FAIL', noted: 'note', inconclusive: 'inconclusive', skipped: 'skip' } as const;

/** One row per operation and check, operations in document order of first appearance. */
export function summaryTable(outcomes: readonly Outcome[]): string {
  const sorted = [...outcomes].sort((a, b) => a.operationId.localeCompare(b.operationId) || a.check.localeCompare(b.check));
  const rows = [['operation', 'check', 'result', 'requests', 'violations', 'notes', 'remark']];
  for (const o of sorted) {
    const violations = o.failures.filter((f) => f.verdict === 'violation').length;
    rows.push([o.operationId, o.check, MARK[statusOf(o)], String(o.exchanges), String(violations), String(o.failures.length - violations), o.inconclusive ?? o.skipped ?? '']);
  }
  return table(rows);
}

export function verdictLine(result: RunResult): string {
  const outcome = result.exitCode === 0 ? 'PASSED' : 'FAILED';
  const strict = result.strict ? ' (--strict: notes and inconclusive checks fail the run)' : '';
  const short = result.coverage.belowMinimum ? `; ${result.coverage.totals.statuses.percent} % of the documented statuses seen, below --min-coverage ${result.coverage.minimum ?? ''}` : '';
  return `${outcome}: ${result.violations} violation(s), ${result.notes} note(s), ${result.inconclusive} inconclusive in ${result.requests} requests to ${result.baseUrl}${strict}${short}. Seed ${result.seed} (replay with --seed ${result.seed}).`;
}

/** The drift of `--compare-with`, by kind: a count and one example each. */
export function driftText(drift: DriftReport, baseUrl: string): string {
  const head = `Drift of ${drift.compareWith} from ${baseUrl}: ${drift.compared} step(s) compared, ${drift.unpaired} not compared (run on one server only, or kept only in part)`;
  if (drift.groups.length === 0) return `${head}\nNo difference: every step compared got the same answer from both (ids, UUIDs and timestamps aside).`;
  const width = Math.max(...drift.groups.map((g) => g.title.length));
  const countWidth = Math.max(...drift.groups.map((g) => String(g.count).length));
  const lines = drift.groups.flatMap((g) => {
    const e = g.example;
    return [
      `  ${g.title.padEnd(width)}  ${String(g.count).padStart(countWidth)}  e.g. ${e.operationId}, step ${e.step}${e.path ? ` at ${e.path}` : ''}: ${baseUrl} gave ${e.first}, ${drift.compareWith} gave ${e.second}`,
      `  ${''.padEnd(width + countWidth + 2)}  request: ${e.request}`,
    ];
  });
  return [head, ...lines].join('\n');
}
