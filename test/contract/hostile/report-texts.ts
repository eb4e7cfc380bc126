// The texts of one `check` run in each report format: the report itself (stdout for console and
// JSON, the --output file for JUnit, HTML and Markdown, whose console summary then goes to
// stdout) and all that was written to stdout and stderr, for tests that read every format alike.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CheckFlags } from '../../../src/cli/check.js';
import { check } from './hostile-server.js';

export const REPORT_FORMATS = ['console', 'json', 'junit', 'html', 'markdown'] as const;
export type ReportFormat = (typeof REPORT_FORMATS)[number];

export interface RunTexts {
  readonly code: number;
  /** The report: stdout, or the file written. */
  readonly report: string;
  readonly stdout: string;
  readonly stderr: string;
  /** Every text the run wrote: the report's file (if any), stdout and stderr. */
  readonly all: readonly string[];
}

export async function runTexts(flags: Partial<CheckFlags>, reporter: ReportFormat): Promise<RunTexts> {
  const output = reporter === 'console' || reporter === 'json' ? undefined : join(mkdtempSync(join(tmpdir(), 'report-')), 'report');
  const { code, stdout, stderr } = await check({ ...flags, reporter, ...(output ? { output } : {}) });
  const report = output ? readFileSync(output, 'utf8') : stdout;
  return { code, report, stdout, stderr, all: output ? [report, stdout, stderr] : [stdout, stderr] };
}
