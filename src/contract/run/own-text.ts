// The text the runner writes on its own, whatever a server answers: every report format made of a
// run in which every check found one violation and one note on every operation, with every note
// a run may have, and every group's progress line. A value a server chose (a session id, a token) is masked only where it is not
// found in this text (secrets.ts, `ownText`): a server that sets its session cookie to
// `violation(s)` or answers a check's name as a token cannot have the verdict line, a check's
// name or an operationId cut out of the reports. A real credential is never found in it.
import type { Spec } from '../../spec/index.js';
import { gapFill, severityOf } from '../citations.js';
import type { ContractCase } from '../cases/case-schema.js';
import { allChecks, titleOf, type OutcomeCheckName } from '../checks/registry.js';
import { toCurl } from '../curl.js';
import { consoleReporter } from '../reporters/console.js';
import { htmlReporter } from '../reporters/html.js';
import { jsonReporter } from '../reporters/json.js';
import { junitReporter } from '../reporters/junit.js';
import { markdownReporter } from '../reporters/markdown.js';
import { REFUSAL_REASONS, refusedNote } from '../refused-masks.js';
import type { ReportedFailure, Verdict } from '../types.js';
import { coverageOf } from './coverage.js';
import { GROUPS } from './plans.js';
import { redirectNoteText } from './redirect-note.js';
import { totalsOf, type Outcome, type RunResult } from './results.js';

/** One outcome of each state (failed, noted, inconclusive, skipped, passed), in turn. */
function outcomeOf(operationId: string, check: string, curl: string, turn: number): Outcome {
  const title = titleOf(check as OutcomeCheckName);
  const failure = (verdict: Verdict): ReportedFailure => ({
    check,
    operationId,
    title,
    message: '',
    severity: severityOf(verdict),
    verdict,
    expected: '',
    citation: verdict === 'violation' ? { source: 'spec', ref: '0', text: '' } : gapFill(operationId, ''),
    key: '',
    curl,
    actual: { status: 0, body: '' },
  });
  const failures = turn === 0 ? [failure('violation'), failure('note')] : turn === 1 ? [failure('note')] : [];
  return { group: GROUPS[0], operationId, check, title, exchanges: turn === 3 ? 0 : 1, failures, ...(turn === 2 ? { inconclusive: '' } : {}), ...(turn === 3 ? { skipped: '' } : {}) };
}

export async function ownText(spec: Spec, baseUrls: readonly string[], cases: readonly ContractCase[]): Promise<string> {
  const checks = [...allChecks().map((c) => c.name), ...cases.map((c) => `case/${c.name}`)];
  const baseUrl = baseUrls[0] ?? 'http://localhost';
  let turn = 0;
  const outcomes = spec.operations.flatMap((op) => {
    const curl = toCurl({ method: op.method.toUpperCase(), url: new URL(op.path, baseUrl).href, headers: { authorization: '', cookie: '', 'x-csrf-token': '', 'content-type': '' }, body: '' });
    return checks.map((check) => outcomeOf(op.operationId, check, curl, turn++ % 5));
  });
  const coverage = coverageOf(spec, [], outcomes, 0);
  // The note on values not taken as masks, with every reason it may give.
  const refused = refusedNote(Object.fromEntries(Object.keys(REFUSAL_REASONS).map((reason) => [reason, 1])));
  // The note on a run answered only by redirects, in each of its forms.
  const redirects = [redirectNoteText([301, 302], [baseUrl, baseUrl], 1), redirectNoteText([302], [], 0)];
  const texts: string[] = [];
  const write = (text: string): void => void texts.push(text);
  for (const strict of [false, true]) {
    const totals = totalsOf(outcomes, strict);
    const result: RunResult = { ...totals, baseUrl, seed: 0, strict, safety: '', runNotes: [...(refused ? [refused] : []), ...redirects], startedAt: '', durationMs: 0, requests: 0, outcomes, coverage, exchanges: [] };
    for (const exitCode of [0, 1] as const) {
      const reporters = [consoleReporter(write), jsonReporter(write), junitReporter(write), htmlReporter(write), markdownReporter(write)];
      for (const group of GROUPS) for (const reporter of reporters) reporter.onEvent({ type: 'group-end', group, outcomes, requests: 0 });
      for (const reporter of reporters) await reporter.finish({ ...result, exitCode });
    }
  }
  return [...baseUrls, texts.join('\n')].join('\n');
}
