// Markdown for a CI job summary (GitHub's $GITHUB_STEP_SUMMARY and the like): the verdict, the
// outcomes, the coverage table, and each cause of findings folded in <details>, every finding inside.
import { formatCitation } from '../checks/check.js';
import type { RunResult } from '../run/results.js';
import type { ReportedFailure } from '../types.js';
import { driftCounts, driftPlace, NO_DRIFT, outcomeRows, OUTCOME_HEADER, coverageTotals, minimumLine, notRunLines, operationCells, causeSummary, causesOf, operationsText, type Cause, answerText, causesLine, LABEL, verdictLine } from './format.js';
import { reportAtEnd, shortCurl } from './reporter.js';

const MARK = { passed: '✅ ok', failed: '❌ FAIL', noted: '📝 note', inconclusive: '❔ inconclusive', skipped: '⏭️ skip' } as const;

/** A table cell: one line, pipes escaped, HTML not interpreted. */
const cell = (text: string): string => text.replace(/[\r\n]+/g, ' ').replace(/[&<>]/g, (c) => `&#${c.charCodeAt(0)};`).replace(/\|/g, '\\|');

/** Text inside a fenced block: a fence in the text must not end it. */
const fenced = (text: string): string => `\`\`\`\n${text.replace(/```/g, '`\u200b``')}\n\`\`\``;

function table(header: readonly string[], rows: readonly string[][]): string {
  return [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.map(cell).join(' | ')} |`)].join('\n');
}

/** One cause, folded: its count and operations, its first finding in full, and every finding in a table. */
function cause(c: Cause): string {
  const [f] = c.findings as [ReportedFailure];
  const every = table(['operation', 'found', 'request'], c.findings.map((each) => [each.operationId, each.message, shortCurl(each.curl)]));
  return [
    `<details><summary><b>${LABEL[c.verdict]}</b> ${cell(causeSummary(c))}</summary>`,
    '',
    ...(c.findings.length > 1 ? [`- on: ${cell(operationsText(c))}`, `- the first: ${cell(`${f.operationId} · ${f.message}`)}`] : []),
    `- expected: ${cell(f.expected)}`,
    `- cites: ${cell(formatCitation(f.citation))}`,
    '',
    fenced(shortCurl(f.curl)),
    '',
    fenced(answerText(f)),
    ...(c.findings.length > 1 ? ['', `<details><summary>Every finding (${c.findings.length})</summary>`, '', every, '', '</details>'] : []),
    '',
    '</details>',
  ].join('\n');
}

/** The drift of `--compare-with` by kind, one example each. */
function driftSection(result: RunResult): string[] {
  const { drift } = result;
  if (!drift) return [];
  const rows = drift.groups.map((g) => [g.title, String(g.count), driftPlace(g.example), g.example.first, g.example.second]);
  return [
    '',
    `### Drift of ${cell(drift.compareWith)}`,
    '',
    cell(`${driftCounts(drift)}.`),
    '',
    rows.length > 0 ? table(['kind', 'count', 'example', result.baseUrl, drift.compareWith], rows) : NO_DRIFT,
  ];
}

export function markdownReport(result: RunResult): string {
  const { coverage } = result;
  const causes = causesOf(result.outcomes.flatMap((o) => o.failures));
  const coverageRows = coverage.operations.map((o) => {
    const c = operationCells(o);
    return [o.operationId, String(o.requests), c.seen, c.notSeen, c.auth, c.parameters, c.sections];
  });
  const notRun = notRunLines(coverage);
  const minimum = minimumLine(coverage);
  return [
    `## Contract check: ${result.exitCode === 0 ? '✅ PASSED' : '❌ FAILED'}`,
    '',
    cell(verdictLine(result)),
    '',
    `Safety: ${cell(result.safety)}`,
    ...(result.runNotes ?? []).flatMap((n) => ['', `Note: ${cell(n)}.`]),
    '',
    '### Checks',
    '',
    table(OUTCOME_HEADER, outcomeRows(result.outcomes, MARK)),
    '',
    '### Coverage',
    '',
    cell(coverageTotals(coverage)),
    ...(minimum ? ['', `**${cell(minimum)}**`] : []),
    '',
    table(['operation', 'requests', 'statuses seen', 'not seen', 'auth', 'query parameters', 'spec sections'], coverageRows),
    ...(notRun.length > 0 ? ['', '**Not run**', '', ...notRun.map((l) => `- ${cell(l)}`)] : []),
    ...driftSection(result),
    ...(causes.length > 0 ? ['', '### Findings', '', cell(`${causesLine(causes)}; every finding is under its cause.`), '', ...causes.map(cause)] : []),
    '',
  ].join('\n');
}

export const markdownReporter = reportAtEnd(markdownReport);
