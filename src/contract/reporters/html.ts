// One self-contained HTML page (no script, no font, no request of any kind: a Content-Security-
// Policy says so to the browser too): the verdict, operations × checks in colour, the coverage
// matrix, and each cause of findings folded in <details> with its first finding's curl command,
// citation and answer, and every finding of it.
import { escapeHtml } from '../../shared/escape.js';
import { formatCitation } from '../checks/check.js';
import type { Coverage } from '../run/coverage.js';
import { statusOf, type Outcome, type OutcomeStatus, type RunResult } from '../run/results.js';
import type { ReportedFailure } from '../types.js';
import { driftCounts, driftPlace, NO_DRIFT, coverageTotals, minimumLine, notRunLines, operationCells, causeSummary, causesOf, operationsText, type Cause, answerText, causesLine, LABEL, verdictLine } from './format.js';
import { reportAtEnd, shortCurl } from './reporter.js';

const esc = (text: string | number): string => escapeHtml(String(text));

const MARK: Readonly<Record<OutcomeStatus, string>> = { passed: 'ok', failed: 'FAIL', noted: 'note', inconclusive: '?', skipped: 'skip' };

const STYLE = `
:root { --ok:#1a7f37; --ok-bg:#dafbe1; --fail:#cf222e; --fail-bg:#ffebe9; --note:#9a6700; --note-bg:#fff8c5;
  --inc:#8250df; --inc-bg:#fbefff; --skip:#57606a; --skip-bg:#eaeef2; --line:#d0d7de; --ink:#1f2328; --muted:#57606a; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: var(--ink); background: #f6f8fa; }
header { padding: 20px 28px; color: #fff; }
header.run-passed { background: linear-gradient(90deg, #1a7f37, #2da44e); }
header.run-failed { background: linear-gradient(90deg, #a40e26, #cf222e); }
header h1 { margin: 0 0 6px; font-size: 26px; letter-spacing: .5px; }
header p { margin: 2px 0; opacity: .95; }
.badges { display: flex; gap: 10px; flex-wrap: wrap; margin-top: 12px; }
.badge { background: rgba(255,255,255,.18); border: 1px solid rgba(255,255,255,.35); border-radius: 14px; padding: 3px 12px; font-weight: 600; }
main { padding: 8px 28px 40px; }
section { background: #fff; border: 1px solid var(--line); border-radius: 8px; margin: 18px 0; padding: 14px 18px; overflow-x: auto; }
h2 { font-size: 17px; margin: 0 0 10px; }
table { border-collapse: collapse; font-size: 13px; }
th, td { border: 1px solid var(--line); padding: 4px 7px; text-align: left; vertical-align: top; }
th { background: #f6f8fa; font-weight: 600; }
th.check { writing-mode: vertical-rl; transform: rotate(180deg); white-space: nowrap; padding: 8px 4px; font-weight: 500; }
td.cell { text-align: center; font-weight: 600; min-width: 34px; }
.passed { color: var(--ok); background: var(--ok-bg); } .failed { color: var(--fail); background: var(--fail-bg); }
.noted { color: var(--note); background: var(--note-bg); } .inconclusive { color: var(--inc); background: var(--inc-bg); }
.skipped { color: var(--skip); background: var(--skip-bg); } .none { background: #fff; }
.seen { color: var(--ok); background: var(--ok-bg); } .unseen { color: var(--note); background: var(--note-bg); }
.undocumented { color: var(--inc); background: var(--inc-bg); } .na { color: #afb8c1; }
.legend span { display: inline-block; padding: 1px 8px; border-radius: 10px; margin-right: 6px; font-size: 12px; font-weight: 600; }
.muted { color: var(--muted); }
details { border: 1px solid var(--line); border-left-width: 5px; border-radius: 6px; margin: 8px 0; background: #fff; }
details.violation { border-left-color: var(--fail); } details.note { border-left-color: var(--note); }
summary { cursor: pointer; padding: 8px 12px; font-weight: 600; }
summary .kind { display: inline-block; min-width: 78px; font-size: 12px; padding: 1px 8px; border-radius: 10px; text-align: center; margin-right: 8px; }
details.violation .kind { color: #fff; background: var(--fail); } details.note .kind { color: #3b2300; background: #f2cc60; }
details.every { margin: 0 14px 12px; border-left-width: 1px; } details.every summary { font-weight: 500; }
details dl { margin: 0; padding: 4px 14px 12px; display: grid; grid-template-columns: 90px 1fr; gap: 6px 12px; }
dt { font-weight: 600; color: var(--muted); } dd { margin: 0; }
pre { margin: 0; padding: 8px 10px; background: #f6f8fa; border: 1px solid var(--line); border-radius: 6px; white-space: pre-wrap; word-break: break-all; font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; }
ul { margin: 6px 0; padding-left: 22px; }
`;

function checksMatrix(result: RunResult): string {
  // In the document's order, then any other the outcomes name.
  const answered = new Set(result.outcomes.map((o) => o.operationId));
  const operations = [...new Set([...result.coverage.operations.map((o) => o.operationId), ...answered])].filter((op) => answered.has(op));
  const checks = [...new Set(result.outcomes.map((o) => o.check))].sort((a, b) => Number(a.startsWith('case/')) - Number(b.startsWith('case/')));
  const byKey = new Map<string, Outcome>(result.outcomes.map((o) => [`${o.operationId}\u0000${o.check}`, o]));
  const rows = operations.map((op) => {
    const cells = checks.map((check) => {
      const o = byKey.get(`${op}\u0000${check}`);
      if (!o) return '<td class="cell none"></td>';
      const status = statusOf(o);
      const tip = [`${o.check}: ${o.title}`, `${o.exchanges} request(s), ${o.failures.length} finding(s)`, o.inconclusive ?? o.skipped ?? ''].filter(Boolean).join('\n');
      return `<td class="cell ${status}" title="${esc(tip)}">${esc(MARK[status])}${o.failures.length > 0 ? `<sub>${o.failures.length}</sub>` : ''}</td>`;
    });
    return `<tr><th>${esc(op)}</th>${cells.join('')}</tr>`;
  });
  const legend = (['passed', 'failed', 'noted', 'inconclusive', 'skipped'] as const).map((s) => `<span class="${s}">${MARK[s]} ${s}</span>`).join('');
  return `<p class="legend">${legend}</p><table id="checks"><thead><tr><th>operation</th>${checks.map((c) => `<th class="check">${esc(c)}</th>`).join('')}</tr></thead><tbody>${rows.join('')}</tbody></table>`;
}

function coverageMatrix(coverage: Coverage): string {
  const statuses = [...new Set(coverage.operations.flatMap((o) => [...o.statuses.map((s) => s.status), ...o.undocumented.map(String)]))].sort();
  const rows = coverage.operations.map((o) => {
    const cells = statuses.map((status) => {
      const documented = o.statuses.find((s) => s.status === status);
      if (documented) return `<td class="cell ${documented.seen ? 'seen' : 'unseen'}" title="${esc(`${status} ${documented.seen ? 'seen' : 'documented, not seen'}`)}">${documented.seen ? '✓' : '✗'}</td>`;
      if (o.undocumented.map(String).includes(status)) return `<td class="cell undocumented" title="${esc(`${status} answered, not documented`)}">!</td>`;
      return '<td class="cell na">·</td>';
    });
    const c = operationCells(o);
    return `<tr><th>${esc(o.operationId)}</th><td>${o.requests}</td>${cells.join('')}<td>${esc(c.auth)}</td><td>${esc(c.parameters)}</td><td>${esc(c.sections)}</td></tr>`;
  });
  const minimum = minimumLine(coverage);
  const notRun = notRunLines(coverage);
  return [
    `<p>${esc(coverageTotals(coverage))}</p>`,
    minimum ? `<p><b class="${coverage.belowMinimum ? 'failed' : 'passed'}">${esc(minimum)}</b></p>` : '',
    '<p class="legend"><span class="seen">✓ seen</span><span class="unseen">✗ documented, not seen</span><span class="undocumented">! not documented</span></p>',
    `<table id="coverage"><thead><tr><th>operation</th><th>requests</th>${statuses.map((s) => `<th>${esc(s)}</th>`).join('')}<th>auth tried</th><th>query parameters</th><th>spec sections</th></tr></thead><tbody>${rows.join('')}</tbody></table>`,
    notRun.length > 0 ? `<h3>Not run</h3><ul>${notRun.map((l) => `<li>${esc(l)}</li>`).join('')}</ul>` : '',
  ].join('\n');
}

/** One cause, folded: its count and operations, its first finding in full, and every finding in a table. */
function cause(c: Cause): string {
  const [f] = c.findings as [ReportedFailure];
  const on = c.findings.length > 1 ? `<dt>on</dt><dd>${esc(operationsText(c))}</dd><dt>the first</dt><dd>${esc(f.operationId)}</dd>` : '';
  const rows = c.findings.map((each) => `<tr><td>${esc(each.operationId)}</td><td>${esc(each.message)}</td><td><pre>${esc(shortCurl(each.curl))}</pre></td></tr>`);
  const every = c.findings.length > 1 ? `<details class="every"><summary>Every finding (${c.findings.length})</summary><table><thead><tr><th>operation</th><th>found</th><th>request</th></tr></thead><tbody>${rows.join('')}</tbody></table></details>` : '';
  return `<details class="${c.verdict}"><summary><span class="kind">${LABEL[c.verdict]}</span>${esc(causeSummary(c))}</summary>
<dl><dt>check</dt><dd>${esc(f.title)}</dd>${on}<dt>found</dt><dd>${esc(f.message)}</dd><dt>expected</dt><dd>${esc(f.expected)}</dd>
<dt>cites</dt><dd>${esc(formatCitation(f.citation))}</dd><dt>request</dt><dd><pre>${esc(shortCurl(f.curl))}</pre></dd><dt>got</dt><dd><pre>${esc(answerText(f))}</pre></dd></dl>${every}</details>`;
}

/** The drift of `--compare-with` by kind, one example each. */
function driftSection(result: RunResult): string {
  const { drift } = result;
  if (!drift) return '';
  const head = `<p>${esc(`${driftCounts(drift)}.`)}</p>`;
  if (drift.groups.length === 0) return `<section id="drift"><h2>Drift of ${esc(drift.compareWith)}</h2>${head}<p class="muted">${NO_DRIFT}</p></section>`;
  const rows = drift.groups.map((g) => {
    const e = g.example;
    return `<tr><td>${esc(g.title)}</td><td>${g.count}</td><td>${esc(driftPlace(e))}</td><td><pre>${esc(e.first)}</pre></td><td><pre>${esc(e.second)}</pre></td><td><pre>${esc(e.request)}</pre></td></tr>`;
  });
  return `<section id="drift"><h2>Drift of ${esc(drift.compareWith)}</h2>${head}<table><thead><tr><th>kind</th><th>count</th><th>example</th><th>${esc(result.baseUrl)}</th><th>${esc(drift.compareWith)}</th><th>request</th></tr></thead><tbody>${rows.join('')}</tbody></table></section>`;
}

export function htmlReport(result: RunResult): string {
  const passed = result.exitCode === 0;
  const causes = causesOf(result.outcomes.flatMap((o) => o.failures));
  const badges = [`${result.violations} violation(s)`, `${result.notes} note(s)`, `${result.inconclusive} inconclusive`, `${result.requests} requests`, `${result.coverage.totals.statuses.percent} % of statuses seen`];
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(`${passed ? 'PASSED' : 'FAILED'}: contract check of ${result.baseUrl}`)}</title>
<style>${STYLE}</style></head>
<body>
<header class="${passed ? 'run-passed' : 'run-failed'}"><h1 id="verdict">${passed ? 'PASSED' : 'FAILED'}</h1>
<p>${esc(verdictLine(result))}</p>
<p>${esc(`${result.safety}; started ${result.startedAt}; ${(result.durationMs / 1000).toFixed(1)} s`)}</p>
${(result.runNotes ?? []).map((n) => `<p class="run-note">${esc(`Note: ${n}.`)}</p>`).join('\n')}
<div class="badges">${badges.map((b) => `<span class="badge">${esc(b)}</span>`).join('')}</div></header>
<main>
<section><h2>Operations × checks</h2>${checksMatrix(result)}</section>
<section><h2>Coverage</h2>${coverageMatrix(result.coverage)}</section>
${driftSection(result)}
<section id="findings"><h2>Findings</h2>${causes.length > 0 ? `<p>${esc(`${causesLine(causes)}; every finding is under its cause.`)}</p>\n${causes.map(cause).join('\n')}` : '<p class="muted">None.</p>'}</section>
</main></body></html>
`;
}

export const htmlReporter = reportAtEnd(htmlReport);
