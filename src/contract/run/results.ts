// What a run produces: outcomes by operation and check, failures with their requests, totals.
import type { Exchange, ReportedFailure } from '../types.js';
import type { DriftReport } from '../differential.js';
import type { Coverage } from './coverage.js';

/**
 * passed: it looked at answers and found nothing; failed: a violation; noted: notes only;
 * inconclusive: some of it could not run or judge what came back (never `ok`); skipped: it did
 * not run, for a stated reason (read-only target, no low-privilege user, no token, no probe).
 */
export type OutcomeStatus = 'passed' | 'failed' | 'noted' | 'inconclusive' | 'skipped';

/** One check on one operation: how many exchanges it looked at and what it found. */
export interface Outcome {
  readonly group: string;
  readonly operationId: string;
  readonly check: string;
  readonly title: string;
  exchanges: number;
  readonly failures: ReportedFailure[];
  /** Why the check did not run (when it looked at no exchange), or what part of it did not. */
  skipped?: string;
  /** Why part of the check could not run or judge an answer: it is then not `ok`. */
  inconclusive?: string;
}

export function statusOf(outcome: Outcome): OutcomeStatus {
  if (outcome.failures.some((f) => f.verdict === 'violation')) return 'failed';
  if (outcome.inconclusive !== undefined) return 'inconclusive';
  if (outcome.failures.length > 0) return 'noted';
  return outcome.exchanges === 0 ? 'skipped' : 'passed';
}

export type Totals = ReturnType<typeof totalsOf>;

/** The counts of findings and inconclusive outcomes, and the exit code they make (docs/runner.md, Exit codes). */
export function totalsOf(outcomes: readonly Outcome[], strict: boolean, belowMinimumCoverage = false) {
  const failures = outcomes.flatMap((o) => o.failures);
  const violations = failures.filter((f) => f.verdict === 'violation').length;
  const notes = failures.length - violations;
  const inconclusive = outcomes.filter((o) => statusOf(o) === 'inconclusive').length;
  const failed = violations > 0 || (strict && (notes > 0 || inconclusive > 0)) || belowMinimumCoverage;
  return { violations, notes, inconclusive, exitCode: failed ? (1 as const) : (0 as const) };
}

export interface RunResult extends Totals {
  readonly baseUrl: string;
  readonly seed: number;
  /** Drawn cases of each generated search, so that a compared run can send the same ones. */
  readonly drawnCases?: Readonly<Record<string, number>>;
  readonly strict: boolean;
  /** Writes allowed or not, and why. */
  readonly safety: string;
  /** What a reader should know of the run as a whole (every answer a redirect). */
  readonly runNotes?: readonly string[];
  readonly startedAt: string;
  readonly durationMs: number;
  readonly requests: number;
  readonly outcomes: readonly Outcome[];
  /** What the run exercised: operations, statuses, auth methods, parameters, spec sections. */
  readonly coverage: Coverage;
  /** Everything sent and received, for differential comparison; never written to a report. */
  readonly exchanges: readonly Exchange[];
  /** With `--compare-with`: how the second server's answers differ, by kind. */
  readonly drift?: DriftReport;
}

export type RunEvent =
  | { readonly type: 'start'; readonly baseUrl: string; readonly seed: number; readonly safety: string }
  | { readonly type: 'group-end'; readonly group: string; readonly outcomes: readonly Outcome[]; readonly requests: number };
