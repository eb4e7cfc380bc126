// Progress while the run goes (one line per group), then the summary table and every failure.
import { statusOf } from '../run/results.js';
import { coverageText } from './coverage-text.js';
import { driftText, formatFailure, summaryTable, verdictLine } from './format.js';
import type { Reporter, Write } from './reporter.js';

export function consoleReporter(write: Write, progress: Write = write): Reporter {
  return {
    onEvent(event) {
      if (event.type === 'start') {
        const through = event.targetUrl ? ` through ${event.baseUrl}` : '';
        progress(`Checking ${event.targetUrl ?? event.baseUrl}${through} (seed ${event.seed}; ${event.safety})\n`);
      }
      if (event.type === 'group-end') {
        const failures = event.outcomes.flatMap((o) => o.failures);
        const violations = failures.filter((f) => f.verdict === 'violation').length;
        const skipped = event.outcomes.filter((o) => statusOf(o) === 'skipped').length;
        const inconclusive = event.outcomes.filter((o) => statusOf(o) === 'inconclusive').length;
        const mark = violations > 0 ? 'FAIL' : failures.length > 0 ? 'note' : inconclusive > 0 ? '??  ' : 'ok  ';
        const counts = [`${violations} violation(s)`, `${failures.length - violations} note(s)`, ...(inconclusive ? [`${inconclusive} inconclusive`] : []), ...(skipped ? [`${skipped} skipped`] : [])];
        progress(`${mark} ${event.group.padEnd(16)} ${event.requests} requests, ${counts.join(', ')}\n`);
      }
    },
    async finish(result) {
      const failures = result.outcomes.flatMap((o) => o.failures);
      const out = [`\n${summaryTable(result.outcomes)}\n`, `\n${coverageText(result.coverage)}\n`];
      const ordered = [...failures.filter((f) => f.verdict === 'violation'), ...failures.filter((f) => f.verdict === 'note')];
      if (ordered.length > 0) out.push(`\n${ordered.map(formatFailure).join('\n\n')}\n`);
      if (result.drift) out.push(`\n${driftText(result.drift, result.baseUrl)}\n`);
      if (result.runNotes?.length) out.push(`\n${result.runNotes.map((n) => `Note: ${n}.`).join('\n')}\n`);
      out.push(`\n${verdictLine(result)}\n`);
      write(out.join(''));
    },
  };
}
