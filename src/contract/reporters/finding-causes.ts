// Findings grouped by cause: the same check finding the same kind of difference, on whichever
// operations. A server that answers 422 for 400 does so everywhere; a reader needs that once,
// with a count, the operations and one example, not once per request.
import type { ReportedFailure, Verdict } from '../types.js';

export interface Cause {
  readonly verdict: Verdict;
  readonly check: string;
  readonly title: string;
  /** Every finding of the cause, in the order the run found them. */
  readonly findings: readonly ReportedFailure[];
  /** The operations it was seen on and how often, the most first. */
  readonly operations: readonly { readonly operationId: string; readonly count: number }[];
}

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

function causeOf(findings: readonly ReportedFailure[]): Cause {
  const counts = new Map<string, number>();
  for (const f of findings) counts.set(f.operationId, (counts.get(f.operationId) ?? 0) + 1);
  const operations = [...counts].map(([operationId, count]) => ({ operationId, count })).sort((a, b) => b.count - a.count || a.operationId.localeCompare(b.operationId));
  const [first] = findings as [ReportedFailure];
  return { verdict: first.verdict, check: first.check, title: first.title, findings, operations };
}

/** The causes of a run's findings: violations first, then the most frequent. */
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

/** How many operations: `1 operation`, `8 operations`. */
const operationCount = (cause: Cause): string => `${cause.operations.length} operation${cause.operations.length === 1 ? '' : 's'}`;

/** A cause in one line, as a folded finding's summary: a single finding says what it found, a group how often. */
export function causeSummary(cause: Cause): string {
  const [first] = cause.findings as [ReportedFailure];
  if (cause.findings.length === 1) return `${first.operationId} · ${first.check}: ${first.message}`;
  return `${cause.check}: ${cause.title} (${findingCount(cause.verdict, cause.findings.length)} on ${operationCount(cause)})`;
}

/** The head of a cause on the console: its count and where it was seen; its first finding follows. */
export function causeHead(cause: Cause): string {
  return `${cause.check}: ${cause.title} (${findingCount(cause.verdict, cause.findings.length)} on ${operationsText(cause)}), the first:`;
}

/** A count of findings with their kind: `1 violation`, `47 notes`. */
export function findingCount(verdict: Verdict, count: number): string {
  return `${count} ${verdict === 'violation' ? 'violation' : 'note'}${count === 1 ? '' : 's'}`;
}
