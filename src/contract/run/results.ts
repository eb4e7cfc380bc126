// What a run produces: outcomes by operation and check, failures with their requests, totals.
import type { Exchange, ReportedFailure } from '../types.js';

export type OutcomeStatus = 'passed' | 'failed' | 'noted' | 'skipped';

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
}

export function statusOf(outcome: Outcome): OutcomeStatus {
  if (outcome.failures.some((f) => f.verdict === 'violation')) return 'failed';
  if (outcome.failures.length > 0) return 'noted';
  return outcome.exchanges === 0 ? 'skipped' : 'passed';
}

export interface RunResult {
  readonly baseUrl: string;
  readonly seed: number;
  readonly strict: boolean;
  /** Writes allowed or not, and why. */
  readonly safety: string;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly requests: number;
  readonly outcomes: readonly Outcome[];
  readonly violations: number;
  readonly notes: number;
  /** 0 when there is no violation (and no note under --strict), else 1. */
  readonly exitCode: 0 | 1;
  /** Everything sent and received, for differential comparison; never written to a report. */
  readonly exchanges: readonly Exchange[];
}

export type RunEvent =
  | { readonly type: 'start'; readonly baseUrl: string; readonly targetUrl?: string; readonly seed: number; readonly safety: string }
  | { readonly type: 'group-start'; readonly group: string }
  | { readonly type: 'group-end'; readonly group: string; readonly outcomes: readonly Outcome[]; readonly requests: number }
  | { readonly type: 'end'; readonly result: RunResult };
