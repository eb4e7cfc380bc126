// `monitoring-api-kit check`: the contract suite against any server. Exit 0 without a
// violation, 1 with one (or with a note under --strict), 2 on a usage or connection error.
import { writeFileSync } from 'node:fs';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { withDifferences } from '../contract/differential.js';
import { BlockedError, UnreachableError, UsageError } from '../contract/errors.js';
import { startPrism, type RunningPrism } from '../contract/prism.js';
import { consoleReporter } from '../contract/reporters/console.js';
import { jsonReporter } from '../contract/reporters/json.js';
import { junitReporter } from '../contract/reporters/junit.js';
import type { Reporter } from '../contract/reporters/reporter.js';
import type { RunResult } from '../contract/run/results.js';
import { runContract, type RunOptions } from '../contract/run/run-contract.js';
import { GROUPS } from '../contract/run/plans.js';

export interface CheckFlags {
  readonly baseUrl?: string;
  readonly login?: string;
  readonly password?: string;
  readonly lowLogin?: string;
  readonly lowPassword?: string;
  readonly token?: string;
  readonly seed?: number;
  readonly allowWrites?: boolean;
  readonly probeLimits?: boolean;
  readonly probeRequests?: number;
  readonly maxWait?: number;
  readonly strict?: boolean;
  readonly reporter: 'console' | 'json' | 'junit';
  readonly output?: string;
  readonly timeout?: number;
  readonly maxRecords?: number;
  readonly cases?: string | false;
  readonly only?: string[];
  readonly compareWith?: string;
  readonly viaPrism?: boolean;
  readonly quiet?: boolean;
}

function integer(min: number) {
  return (value: string): number => {
    if (!/^\d+$/.test(value) || Number(value) < min) throw new InvalidArgumentError(`expected an integer of at least ${min}`);
    return Number(value);
  };
}

const list = (value: string): string[] => value.split(',').map((s) => s.trim()).filter(Boolean);

export function addCheckOptions(command: Command): Command {
  return command
    .addOption(new Option('--base-url <url>', 'the server to check, e.g. http://127.0.0.1:4010').env('MONITORING_API_BASE_URL'))
    .addOption(new Option('--login <login>', 'an administrator login (required)').env('MONITORING_API_LOGIN'))
    .addOption(new Option('--password <password>', "the administrator's password (required)").env('MONITORING_API_PASSWORD'))
    .addOption(new Option('--low-login <login>', 'a low-privilege login, for the permission checks').env('MONITORING_API_LOW_LOGIN'))
    .addOption(new Option('--low-password <password>', "the low-privilege user's password").env('MONITORING_API_LOW_PASSWORD'))
    .addOption(new Option('--token <token>', "the administrator's API token (default: the one its user record shows)").env('MONITORING_API_TOKEN'))
    .addOption(new Option('--seed <n>', 'seed of every generated input and choice (printed in every report)').argParser(integer(0)))
    .addOption(new Option('--allow-writes', 'allow writes that are restored afterwards (default: only on loopback targets)'))
    .addOption(new Option('--read-only', 'GET requests and session log-in/out only, even on loopback'))
    .addOption(new Option('--probe-limits', 'trip a rate limit on purpose and look for the block in the limit-block log'))
    .addOption(new Option('--probe-requests <n>', 'requests of the rate-limit probe').argParser(integer(1)).default(300))
    .addOption(new Option('--max-wait <seconds>', 'longest wait for a block (Retry-After) to end').argParser(integer(0)).default(30))
    .addOption(new Option('--strict', 'notes (differences from gap-fills) fail the run too'))
    .addOption(new Option('--reporter <name>', 'report format').choices(['console', 'json', 'junit']).default('console'))
    .addOption(new Option('--output <file>', 'write the report to this file instead of stdout (with junit, the console summary still goes to stdout)'))
    .addOption(new Option('--timeout <ms>', 'timeout of each request').argParser(integer(1)).default(10_000))
    .addOption(new Option('--max-records <n>', 'the explicit large limit of reference lists').argParser(integer(2)).default(200))
    .addOption(new Option('--cases <dir>', 'folder of contract cases (default: the kit\'s contracts/)'))
    .addOption(new Option('--no-cases', 'run no contract cases'))
    .addOption(new Option('--only <groups>', `run only these groups, comma-separated: ${GROUPS.join(', ')}`).argParser(list))
    .addOption(new Option('--compare-with <url>', 'send the same requests to a second server and report where the answers differ'))
    .addOption(new Option('--via-prism', 'run through `prism proxy` in front of the base URL and report its violations too'))
    .addOption(new Option('--quiet', 'no progress lines'));
}

/** The run options the flags describe; a usage error when something required is missing. */
export function runOptionsFrom(flags: CheckFlags & { readOnly?: boolean }): RunOptions {
  if (!flags.baseUrl) throw new UsageError('--base-url is required (or MONITORING_API_BASE_URL)');
  if (!flags.login || flags.password === undefined) {
    throw new UsageError('administrator credentials are required: --login and --password (or MONITORING_API_LOGIN and MONITORING_API_PASSWORD)');
  }
  if ((flags.lowLogin === undefined) !== (flags.lowPassword === undefined)) throw new UsageError('--low-login and --low-password go together');
  if (flags.allowWrites && flags.readOnly) throw new UsageError('--allow-writes and --read-only contradict each other');
  return {
    baseUrl: flags.baseUrl,
    admin: { login: flags.login, password: flags.password },
    ...(flags.lowLogin !== undefined && flags.lowPassword !== undefined ? { low: { login: flags.lowLogin, password: flags.lowPassword } } : {}),
    token: flags.token,
    seed: flags.seed,
    strict: flags.strict === true,
    allowWrites: flags.allowWrites ? true : flags.readOnly ? false : undefined,
    probeLimits: flags.probeLimits === true,
    probeRequests: flags.probeRequests,
    maxWaitMs: (flags.maxWait ?? 30) * 1000,
    timeoutMs: flags.timeout,
    maxRecords: flags.maxRecords,
    ...(flags.cases === false ? { casesDir: false as const } : typeof flags.cases === 'string' ? { casesDir: flags.cases } : {}),
    groups: flags.only,
  };
}

export interface CheckIo {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
}

const processIo: CheckIo = { stdout: (t) => process.stdout.write(t), stderr: (t) => process.stderr.write(t) };

function reportersFor(flags: CheckFlags, io: CheckIo): Reporter[] {
  const toFile = (text: string): void => writeFileSync(flags.output ?? '', text);
  const progress = flags.quiet ? () => undefined : io.stderr;
  if (flags.reporter === 'json') return [jsonReporter(flags.output ? toFile : io.stdout), consoleReporter(() => undefined, progress)];
  if (flags.reporter === 'junit') return [junitReporter(flags.output ? toFile : io.stdout), consoleReporter(flags.output ? io.stdout : io.stderr, progress)];
  return [consoleReporter(flags.output ? toFile : io.stdout, progress)];
}

/** Runs the check the flags describe and returns the exit code; never throws. */
export async function runCheck(flags: CheckFlags & { readOnly?: boolean }, io: CheckIo = processIo): Promise<number> {
  let prism: RunningPrism | undefined;
  try {
    const options = runOptionsFrom(flags);
    const reporters = reportersFor(flags, io);
    const listener = (event: Parameters<Reporter['onEvent']>[0]): void => reporters.forEach((r) => r.onEvent(event));
    if (flags.viaPrism) {
      prism = await startPrism({ mode: 'proxy', target: options.baseUrl });
      io.stderr(`Prism proxy at ${prism.url} in front of ${options.baseUrl}\n`);
    }
    const primary = { ...options, listener, ...(prism ? { baseUrl: prism.url, targetUrl: options.baseUrl, viaPrism: true } : {}) };
    let result: RunResult = await runContract(primary);
    if (flags.compareWith) {
      io.stderr(`Comparing with ${flags.compareWith} (seed ${result.seed})\n`);
      const second = await runContract({ ...options, baseUrl: flags.compareWith, seed: result.seed });
      const compared = withDifferences(result, second);
      io.stderr(`${flags.compareWith}: ${second.violations} violation(s), ${second.notes} note(s) of its own; ${compared.unpaired} step(s) ran on one server only\n`);
      result = compared;
    }
    for (const reporter of reporters) await reporter.finish(result);
    return result.exitCode;
  } catch (error) {
    if (error instanceof UsageError || error instanceof UnreachableError || error instanceof BlockedError) {
      io.stderr(`monitoring-api-kit check: ${error.message}\n`);
      return 2;
    }
    throw error;
  } finally {
    await prism?.stop();
  }
}

export function registerCheckCommand(program: Command): Command {
  const command = program
    .command('check')
    .description('run the contract suite against a server that claims to implement the API')
    // Usage errors exit with 2, like a connection error; a run with violations exits with 1.
    .exitOverride((error) => {
      process.exit(error.exitCode === 0 ? 0 : 2);
    });
  addCheckOptions(command).action(async (flags: CheckFlags & { readOnly?: boolean }) => {
    process.exitCode = await runCheck(flags);
  });
  return command;
}
