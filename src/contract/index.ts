// The contract runner's public surface: run the suite, read the result, report it.
export { runContract, type RunOptions } from './run/run-contract.js';
export { GROUPS } from './run/plans.js';
export { statusOf, type Outcome, type OutcomeStatus, type RunEvent, type RunResult } from './run/results.js';
export { allChecks, getCheck, responseChecks, type CheckName, type OutcomeCheckName } from './checks/registry.js';
export { apply, defineCheck } from './checks/define.js';
export { loadCases, loadCaseFile, defaultCasesDir } from './cases/load-cases.js';
export type { ContractCase, CaseStep } from './cases/case-schema.js';
export { compareExchanges, withDifferences, type Difference } from './differential.js';
export { startPrism, type PrismOptions, type RunningPrism } from './prism.js';
export { consoleReporter } from './reporters/console.js';
export { jsonReporter } from './reporters/json.js';
export { junitReporter } from './reporters/junit.js';
export { maskedReporter } from './reporters/masked.js';
export type { Reporter } from './reporters/reporter.js';
export { createSecrets, type Secrets } from './secrets.js';
export { decidePolicy, isLoopbackUrl, type SafetyPolicy } from './safety.js';
export { BlockedError, StoppedError, UnreachableError, UsageError } from './errors.js';
export type { Applied, Check, CheckContext, Citation, Exchange, Failure, Inconclusive, Judgement, ReportedFailure, Verdict } from './types.js';
