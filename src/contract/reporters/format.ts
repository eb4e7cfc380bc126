// Text shared by the reporters: one failure with its request, one cause of findings, the summary table.
import { formatCitation } from '../citations.js';
import { statusOf, type Outcome, type OutcomeStatus, type RunResult } from '../run/results.js';
import type { DriftReport } from '../differential.js';
import type { ReportedFailure } from '../types.js';
import { causeHead, findingCount, type Cause } from './finding-causes.js';
import { shortCurl } from './short-curl.js';

export const LABEL = { violation: 'VIOLATION', note: 'NOTE' } as const;

/** What came back: the status and body, or why nothing did. */
export function answerText(f: ReportedFailure): string {
  return f.actual.error ? `no answer: ${f.actual.error}` : `${f.actual.status ?? '?'} ${f.actual.body ?? ''}`.trim();
}

/** What a finding found, expected and cites, and the request and answer that showed it. */
function detailLines(f: ReportedFailure, shorten = true): string[] {
  return [
    `  found:    ${f.message}`,
    `  expected: ${f.expected}`,
    `  cites:    ${formatCitation(f.citation)}`,
    `  request:  ${shorten ? shortCurl(f.curl) : f.curl}`,
    `  got:      ${answerText(f)}`,
  ];
}

/** One finding; its curl line shortened unless `shorten` is false (JUnit keeps it whole). */
export function formatFailure(f: ReportedFailure, shorten = true): string {
  return [`${LABEL[f.verdict]} ${f.operationId} · ${f.check}: ${f.title}`, ...detailLines(f, shorten)].join('\n');
}

/** One cause: its count and operations, and its first finding in full. */
export function formatCause(cause: Cause): string {
  const [first] = cause.findings as [ReportedFailure];
  if (cause.findings.length === 1) return formatFailure(first);
  return [`${LABEL[cause.verdict]} ${causeHead(cause)}`, ...detailLines(first)].join('\n');
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

const TALLY: Readonly<Record<OutcomeStatus, string>> = { passed: 'ok', failed: 'failed', noted: 'with notes', inconclusive: 'inconclusive', skipped: 'skipped' };

/** The outcomes in one line, for a report that leaves the table to --verbose. */
export function outcomeTally(outcomes: readonly Outcome[]): string {
  const counts = new Map<OutcomeStatus, number>();
  for (const o of outcomes) counts.set(statusOf(o), (counts.get(statusOf(o)) ?? 0) + 1);
  const operations = new Set(outcomes.map((o) => o.operationId)).size;
  const parts = (Object.keys(TALLY) as OutcomeStatus[]).flatMap((status) => (counts.has(status) ? [`${counts.get(status)} ${TALLY[status]}`] : []));
  return `Checks: ${outcomes.length} on ${operations} operations: ${parts.join(', ')} (--verbose: the table of every operation and check).`;
}

/** The head of the findings: how many, of how many causes. */
export function causesLine(causes: readonly Cause[]): string {
  const total = (verdict: 'violation' | 'note'): number => causes.filter((c) => c.verdict === verdict).reduce((n, c) => n + c.findings.length, 0);
  const counts = (['violation', 'note'] as const).filter((v) => total(v) > 0).map((v) => findingCount(v, total(v)));
  return `Findings: ${counts.join(' and ')} of ${causes.length} cause${causes.length === 1 ? '' : 's'}, each once with its count, where it was seen and its first finding`;
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
