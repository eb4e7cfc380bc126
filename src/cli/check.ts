// `monitoring-api-kit check`: the contract suite against any server. Exit 0 without a
// violation, 1 with one (or with a note under --strict), 2 on a usage or connection error.
// The command and its flags are in program.ts; this module is loaded when it runs.
import { accessSync, constants, existsSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { processIo, serverOf, type CheckFlags, type CheckIo } from './program.js';
import { withDifferences } from '../contract/differential.js';
import { BlockedError, StoppedError, UnreachableError, UsageError } from '../contract/errors.js';
import { consoleReporter } from '../contract/reporters/console.js';
import { jsonReporter, maskedReporter, shownText, type Reporter, type Write } from '../contract/reporters/reporter.js';
import { htmlReporter } from '../contract/reporters/html.js';
import { junitReporter } from '../contract/reporters/junit.js';
import { markdownReporter } from '../contract/reporters/markdown.js';
import type { RunResult } from '../contract/run/results.js';
import { runContract, type RunOptions } from '../contract/run/run-contract.js';
import { createSecrets, type Secrets } from '../shared/redaction/secret-values.js';

/** A login and its password, given together or not at all. */
function pair(login: string | undefined, password: string | undefined, names: string): { login: string; password: string } | undefined {
  if ((login === undefined) !== (password === undefined)) throw new UsageError(`${names} go together`);
  return login === undefined ? undefined : { login, password: password as string };
}

/** The run options the flags describe; a usage error when something required is missing. */
export function runOptionsFrom(flags: CheckFlags): RunOptions {
  const server = serverOf(flags);
  const low = pair(flags.lowLogin, flags.lowPassword, '--low-login and --low-password');
  const operator = pair(flags.operatorLogin, flags.operatorPassword, '--operator-login and --operator-password');
  if (flags.allowWrites && flags.readOnly) throw new UsageError('--allow-writes and --read-only contradict each other');
  return {
    ...server,
    ...(low ? { low } : {}),
    ...(operator ? { operator } : {}),
    token: flags.token,
    seed: flags.seed,
    strict: flags.strict === true,
    allowWrites: flags.allowWrites ? true : flags.readOnly ? false : undefined,
    probeLimits: flags.probeLimits === true,
    probeRequests: flags.probeRequests,
    maxWaitMs: (flags.maxWait ?? 30) * 1000,
    timeoutMs: flags.timeout,
    ...(flags.maxDuration === undefined ? {} : { maxDurationMs: flags.maxDuration * 1000 }),
    maxRecords: flags.maxRecords,
    ...(flags.budget === undefined ? {} : { budgetMs: flags.budget * 1000 }),
    ...(flags.minCoverage === undefined ? {} : { minCoverage: flags.minCoverage }),
    ...(flags.cases === undefined ? {} : { casesDir: flags.cases }),
    groups: flags.only,
  };
}

/** The run options of the --compare-with server: its own credentials when given (then none of the first's token and other users), else the first's. */
export function compareOptionsFrom(flags: CheckFlags, first: RunOptions): RunOptions | undefined {
  if (!flags.compareWith) {
    if ([flags.compareLogin, flags.comparePassword, flags.compareLowLogin, flags.compareLowPassword].some((v) => v !== undefined)) {
      throw new UsageError('--compare-login, --compare-password and the low-privilege pair need --compare-with');
    }
    return undefined;
  }
  const own = pair(flags.compareLogin, flags.comparePassword, '--compare-login and --compare-password');
  const ownLow = pair(flags.compareLowLogin, flags.compareLowPassword, '--compare-low-login and --compare-low-password');
  const { low: _low, operator: _operator, token: _token, ...shared } = first;
  if (own) return { ...shared, baseUrl: flags.compareWith, admin: own, low: ownLow };
  return { ...first, baseUrl: flags.compareWith, low: ownLow ?? first.low };
}

/**
 * The --output file: its place is checked before the run, so a run of minutes does not end in an
 * unwritten report, and a failed write is a usage error (exit 2), not a crash.
 */
function reportFile(path: string): (text: string) => void {
  const full = resolve(path);
  const refused = (error: unknown): UsageError => new UsageError(`cannot write the report to ${path}: ${error instanceof Error ? error.message : String(error)}`);
  try {
    if (existsSync(full) && statSync(full).isDirectory()) throw new Error('it is a directory');
    accessSync(existsSync(full) ? full : dirname(full), constants.W_OK);
  } catch (error) {
    throw refused(error);
  }
  return (text) => {
    try {
      writeFileSync(full, text);
    } catch (error) {
      throw refused(error);
    }
  };
}

// Reports written whole at the end (to --output or stdout), with the console summary beside them.
const FILE_REPORTERS: Partial<Record<CheckFlags['reporter'], (write: Write) => Reporter>> = { json: jsonReporter, junit: junitReporter, html: htmlReporter, markdown: markdownReporter };

function reportersFor(flags: CheckFlags, io: CheckIo): Reporter[] {
  const toFile = flags.output === undefined ? io.stdout : reportFile(flags.output);
  const progress = flags.quiet ? () => undefined : io.stderr;
  const shown = { verbose: flags.verbose };
  const fileReporter = FILE_REPORTERS[flags.reporter];
  if (!fileReporter) return [consoleReporter(toFile, progress, shown)];
  // Beside a JSON report only the progress lines; beside another, the console summary too.
  const summary = flags.reporter === 'json' ? () => undefined : flags.output ? io.stdout : io.stderr;
  return [fileReporter(toFile), consoleReporter(summary, progress, shown)];
}

/** The secrets known before the run (the run adds the ones it learns), and output that masks them. */
function secretsOf(flags: CheckFlags, io: CheckIo): { secrets: Secrets; io: CheckIo } {
  const secrets = createSecrets();
  const pairs = [[flags.login, flags.password], [flags.lowLogin, flags.lowPassword], [flags.operatorLogin, flags.operatorPassword], [flags.compareLogin, flags.comparePassword], [flags.compareLowLogin, flags.compareLowPassword]];
  for (const [login, password] of pairs) secrets.addCredentials(login === undefined || password === undefined ? undefined : { login, password });
  secrets.add(flags.token);
  for (const url of [flags.baseUrl, flags.compareWith]) secrets.addUrl(url);
  const shown = shownText(secrets);
  return { secrets, io: { stdout: (t) => io.stdout(shown(t)), stderr: (t) => io.stderr(shown(t)) } };
}

/** Runs the check the flags describe and returns the exit code; never throws. */
export async function runCheck(flags: CheckFlags, rawIo: CheckIo = processIo): Promise<number> {
  const { secrets, io } = secretsOf(flags, rawIo);
  try {
    const options = { ...runOptionsFrom(flags), secrets };
    const compare = compareOptionsFrom(flags, options);
    const reporters = reportersFor(flags, io).map((reporter) => maskedReporter(reporter, secrets));
    const listener = (event: Parameters<Reporter['onEvent']>[0]): void => reporters.forEach((r) => r.onEvent(event));
    let result: RunResult = await runContract({ ...options, listener, compared: compare !== undefined });
    if (compare) {
      io.stderr(`Comparing with ${compare.baseUrl} (seed ${result.seed}${compare.admin === options.admin ? '' : `, as ${compare.admin.login}`})\n`);
      const second = await runContract({ ...compare, seed: result.seed, ...(result.drawnCases ? { drawnCases: result.drawnCases } : {}) }).catch((error: unknown) => {
        // The first server's credentials, reused, are often not the second's.
        if (error instanceof UsageError && / credentials were refused /.test(error.message) && flags.compareLogin === undefined) {
          throw new UsageError(`${error.message}; give the second server its own with --compare-login and --compare-password (and --compare-low-login, --compare-low-password)`);
        }
        throw error;
      });
      const compared = withDifferences(result, second);
      io.stderr(`${compare.baseUrl}: ${second.violations} violation(s), ${second.notes} note(s) of its own; ${compared.unpaired} step(s) not compared (run on one server only, or kept only in part)\n`);
      result = compared;
    }
    for (const reporter of reporters) await reporter.finish(result);
    return result.exitCode;
  } catch (error) {
    if (error instanceof UsageError || error instanceof UnreachableError || error instanceof BlockedError || error instanceof StoppedError) {
      io.stderr(`monitoring-api-kit check: ${error.message}\n`);
      return 2;
    }
    throw error;
  }
}

export type { CheckFlags } from './program.js';
