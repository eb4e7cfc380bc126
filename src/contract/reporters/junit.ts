// JUnit XML for CI: one testsuite per operationId, one testcase per check. Violations are
// failures; notes are system-out (failures under --strict); checks that did not run are skipped,
// with the reason in system-out (inconclusive ones are failures under --strict). A `drift` suite
// groups the differences of --compare-with by kind; a `coverage` suite ends the report.
import junitModule, { type Builder } from 'junit-report-builder';
import { statusOf, type RunResult } from '../run/results.js';
import { driftPlace, coverageTotals, minimumLine, notRunLines, operationCells, driftText, formatFailure, verdictLine } from './format.js';
import { reportAtEnd } from './reporter.js';

// junit-report-builder is CommonJS; under NodeNext its default export arrives wrapped or not, depending on the loader.
const junit = ((junitModule as unknown as { default?: Builder }).default ?? junitModule) as unknown as Builder;

/** The coverage section: totals as properties, one testcase per operation, and --min-coverage as a testcase that fails when the run fell short. */
function coverageSuite(builder: Builder, result: RunResult): void {
  const { coverage } = result;
  const suite = builder.testSuite().name('coverage');
  const { operations, statuses, sections } = coverage.totals;
  suite
    .property('operations', `${operations.covered}/${operations.of}`)
    .property('statuses', `${statuses.covered}/${statuses.of}`)
    .property('statusPercent', String(statuses.percent))
    .property('sections', `${sections.covered}/${sections.of}`);
  for (const o of coverage.operations) {
    const cells = operationCells(o);
    const text = [`requests: ${o.requests}`, `statuses seen: ${cells.seen}`, `not seen: ${cells.notSeen}`, `auth: ${cells.auth}`, `query: ${cells.parameters}`, `spec: ${cells.sections}`];
    suite.testCase().className('monitoring-api-kit.coverage').name(o.operationId).standardOutput(text.join('\n'));
  }
  const minimum = minimumLine(coverage);
  if (minimum) {
    const test = suite.testCase().className('monitoring-api-kit.coverage').name('min-coverage').standardOutput(`${coverageTotals(coverage)}\n${minimum}`);
    if (coverage.belowMinimum) test.failure(minimum, 'coverage');
  }
  const notRun = notRunLines(coverage);
  if (notRun.length > 0) suite.testCase().className('monitoring-api-kit.coverage').name('not-run').standardOutput(notRun.join('\n'));
}

/**
 * The drift of `--compare-with` as CI shows it at a glance: one testcase per kind of
 * difference (its count and one example), beside the per-operation `differs` notes.
 */
function driftSuite(builder: Builder, result: RunResult): void {
  const { drift } = result;
  if (!drift) return;
  const suite = builder.testSuite().name('drift');
  suite.property('compareWith', drift.compareWith).property('compared', String(drift.compared)).property('unpaired', String(drift.unpaired));
  const testCase = (name: string) => suite.testCase().className('monitoring-api-kit.drift').name(name);
  if (drift.groups.length === 0) testCase('no-difference').standardOutput(driftText(drift, result.baseUrl));
  for (const { kind, title, count, example: e } of drift.groups) {
    testCase(kind).standardOutput(`${title}: ${count}\ne.g. ${driftPlace(e)}: ${result.baseUrl} gave ${e.first}, ${drift.compareWith} gave ${e.second}\n${e.request}`);
  }
}

export const junitReporter = reportAtEnd((result) => {
  const builder = junit.newBuilder();
  const operations = [...new Set(result.outcomes.map((o) => o.operationId))].sort();
  for (const operationId of operations) {
    const suite = builder.testSuite().name(operationId);
    suite.property('baseUrl', result.baseUrl).property('seed', String(result.seed)).property('safety', result.safety);
    for (const note of result.runNotes ?? []) suite.property('note', `${note}.`);
    for (const o of result.outcomes.filter((x) => x.operationId === operationId)) {
      const test = suite.testCase().className(`monitoring-api-kit.${operationId}`).name(o.check);
      const status = statusOf(o);
      if (status === 'skipped') test.skipped().standardOutput(`skipped: ${o.skipped ?? 'nothing to check'}`);
      if (status === 'skipped' || status === 'passed') continue;
      const inconclusive = status === 'inconclusive';
      const fails = status === 'failed' || result.strict;
      const first = o.failures.find((f) => f.verdict === 'violation') ?? o.failures[0];
      if (fails) test.failure(inconclusive ? `inconclusive: ${o.inconclusive ?? ''}` : `${o.failures.length} finding(s): ${first?.message ?? ''}`, inconclusive ? 'inconclusive' : status === 'failed' ? 'violation' : 'note');
      else if (inconclusive) test.skipped();
      // A failing testcase ends with the verdict line; another with the seed that replays it.
      const head = inconclusive ? [`${fails ? '' : 'inconclusive: '}${o.inconclusive ?? ''}`] : [];
      test.standardOutput([...head, ...o.failures.map((f) => formatFailure(f, false)), fails ? verdictLine(result) : `Seed ${result.seed}.`].join('\n\n'));
    }
  }
  driftSuite(builder, result);
  coverageSuite(builder, result);
  return builder.build();
});
