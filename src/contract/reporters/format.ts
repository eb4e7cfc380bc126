// Texts every report shares: a finding, the verdict line, the coverage cells, and findings grouped by cause.
import { formatCitation } from '../checks/check.js';
import { statusOf, type Outcome, type OutcomeStatus, type RunResult } from '../run/results.js';
import type { DriftReport } from '../differential.js';
import type { ReportedFailure, Verdict } from '../types.js';
import { shortCurl } from './reporter.js';
import type { Coverage, OperationCoverage } from '../run/coverage.js';

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
  const head = `${cause.check}: ${cause.title} (${findingCount(cause.verdict, cause.findings.length)} on ${operationsText(cause)}), the first:`;
  return [`${LABEL[cause.verdict]} ${head}`, ...detailLines(first)].join('\n');
}

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
  return rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join('  ').trimEnd()).join('\n');
}

const MARK = { passed: 'ok', failed: 'FAIL', noted: 'note', inconclusive: 'inconclusive', skipped: 'skip' } as const;

/** One row per operation and check, by operation and check: the result shown by `mark`. */
export function outcomeRows(outcomes: readonly Outcome[], mark: Readonly<Record<OutcomeStatus, string>> = MARK): string[][] {
  return [...outcomes]
    .sort((a, b) => a.operationId.localeCompare(b.operationId) || a.check.localeCompare(b.check))
    .map((o) => {
      const violations = o.failures.filter((f) => f.verdict === 'violation').length;
      return [o.operationId, o.check, mark[statusOf(o)], String(o.exchanges), String(violations), String(o.failures.length - violations), o.inconclusive ?? o.skipped ?? ''];
    });
}

export const OUTCOME_HEADER = ['operation', 'check', 'result', 'requests', 'violations', 'notes', 'remark'];

export const summaryTable = (outcomes: readonly Outcome[]): string => table([OUTCOME_HEADER, ...outcomeRows(outcomes)]);

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

export const driftCounts = (drift: DriftReport): string => `${drift.compared} step(s) compared, ${drift.unpaired} not compared (run on one server only, or kept only in part)`;
export const NO_DRIFT = 'No difference: every step compared got the same answer from both (ids, UUIDs and timestamps aside).';
export const driftPlace = (e: DriftReport['groups'][number]['example']): string => `${e.operationId}, step ${e.step}${e.path ? ` at ${e.path}` : ''}`;

/** The drift of `--compare-with`, by kind: a count and one example each. */
export function driftText(drift: DriftReport, baseUrl: string): string {
  const head = `Drift of ${drift.compareWith} from ${baseUrl}: ${driftCounts(drift)}`;
  if (drift.groups.length === 0) return `${head}\n${NO_DRIFT}`;
  const width = Math.max(...drift.groups.map((g) => g.title.length));
  const countWidth = Math.max(...drift.groups.map((g) => String(g.count).length));
  const lines = drift.groups.flatMap((g) => {
    const e = g.example;
    return [
      `  ${g.title.padEnd(width)}  ${String(g.count).padStart(countWidth)}  e.g. ${driftPlace(e)}: ${baseUrl} gave ${e.first}, ${drift.compareWith} gave ${e.second}`,
      `  ${''.padEnd(width + countWidth + 2)}  request: ${e.request}`,
    ];
  });
  return [head, ...lines].join('\n');
}

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

export type Cause = ReturnType<typeof causeOf>;

/**
 * What a finding says once its operation and list positions are set aside, and on which class of
 * answer: a text body is one cause on every error answer (whichever gap-fill the 401 or the 403
 * cites) and another on a success (a text token).
 */
function kindOf(f: ReportedFailure): string {
  const message = f.message.replaceAll(f.operationId, '{operation}').replace(/\/\d+(?=\/|\b)/g, '/[]');
  const answer = f.actual.status === undefined ? 'none' : String(f.actual.status).slice(0, 1);
  return [f.verdict, f.check, answer, message].join('\u0000');
}

/** A cause: every finding of it, in the order the run found them, and the operations it was seen on and how often, the most first. */
function causeOf(findings: readonly ReportedFailure[]) {
  const counts = new Map<string, number>();
  for (const f of findings) counts.set(f.operationId, (counts.get(f.operationId) ?? 0) + 1);
  const operations = [...counts].map(([operationId, count]) => ({ operationId, count })).sort((a, b) => b.count - a.count || a.operationId.localeCompare(b.operationId));
  const [first] = findings as [ReportedFailure];
  return { verdict: first.verdict, check: first.check, title: first.title, findings, operations };
}

/** The causes of a run's findings: violations first, then the most frequent. */
// Findings grouped by cause (the same check finding the same kind of difference): a server that answers
// 422 for 400 does so everywhere, and a reader needs that once, with a count and one example.
export function causesOf(failures: readonly ReportedFailure[]): Cause[] {
  const byKind = new Map<string, ReportedFailure[]>();
  for (const f of failures) {
    const kind = kindOf(f);
    const same = byKind.get(kind);
    if (same) same.push(f);
    else byKind.set(kind, [f]);
  }
  const rank = (c: Cause): number => (c.verdict === 'violation' ? 0 : 1);
  return [...byKind.values()].map(causeOf).sort((a, b) => rank(a) - rank(b) || b.findings.length - a.findings.length);
}

/** Where a cause was seen, in words: `getEventLog ×11, createSession ×7`. */
export function operationsText(cause: Cause): string {
  return cause.operations.map((o) => `${o.operationId} ×${o.count}`).join(', ');
}

/** A cause in one line, as a folded finding's summary: a single finding says what it found, a group how often. */
export function causeSummary(cause: Cause): string {
  const [first] = cause.findings as [ReportedFailure];
  if (cause.findings.length === 1) return `${first.operationId} · ${first.check}: ${first.message}`;
  return `${cause.check}: ${cause.title} (${findingCount(cause.verdict, cause.findings.length)} on ${cause.operations.length} operation${cause.operations.length === 1 ? '' : 's'})`;
}

/** A count of findings with their kind: `1 violation`, `47 notes`. */
function findingCount(verdict: Verdict, count: number): string {
  return `${count} ${verdict === 'violation' ? 'violation' : 'note'}${count === 1 ? '' : 's'}`;
}
