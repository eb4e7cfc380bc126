// Progress while the run goes (one line per group), then a report read in a minute: the
// outcomes and coverage in short, and each cause of findings once. `verbose` adds the table of
// every operation and check, the coverage of each operation, and every finding.
import { statusOf, totalsOf } from '../run/results.js';
import { coverageText, causesOf, causesLine, driftText, formatCause, formatFailure, outcomeTally, summaryTable, verdictLine } from './format.js';
import type { Reporter, Write } from './reporter.js';

export function consoleReporter(write: Write, progress: Write = write, { verbose = false } = {}): Reporter {
  return {
    onEvent(event) {
      if (event.type === 'start') progress(`Checking ${event.baseUrl} (seed ${event.seed}; ${event.safety})\n`);
      if (event.type === 'group-end') {
        const { violations, notes, inconclusive } = totalsOf(event.outcomes, false);
        const skipped = event.outcomes.filter((o) => statusOf(o) === 'skipped').length;
        const mark = violations > 0 ? 'FAIL' : notes > 0 ? 'note' : inconclusive > 0 ? '??  ' : 'ok  ';
        const counts = [`${violations} violation(s)`, `${notes} note(s)`, ...(inconclusive ? [`${inconclusive} inconclusive`] : []), ...(skipped ? [`${skipped} skipped`] : [])];
        progress(`${mark} ${event.group.padEnd(16)} ${event.requests} requests, ${counts.join(', ')}\n`);
      }
    },
    async finish(result) {
      const causes = causesOf(result.outcomes.flatMap((o) => o.failures));
      const out = verbose
        ? [`\n${summaryTable(result.outcomes)}\n`, `\n${coverageText(result.coverage)}\n`]
        : [`\n${outcomeTally(result.outcomes)}\n${coverageText(result.coverage, { perOperation: false })}\n`];
      if (verbose && causes.length > 0) out.push(`\n${causes.flatMap((c) => c.findings.map((f) => formatFailure(f))).join('\n\n')}\n`);
      if (!verbose && causes.length > 0) out.push(`\n${causesLine(causes)} (--verbose lists every finding).\n\n${causes.map(formatCause).join('\n\n')}\n`);
      if (result.drift) out.push(`\n${driftText(result.drift, result.baseUrl)}\n`);
      if (result.runNotes?.length) out.push(`\n${result.runNotes.map((n) => `Note: ${n}.`).join('\n')}\n`);
      out.push(`\n${verdictLine(result)}\n`);
      write(out.join(''));
    },
  };
}
