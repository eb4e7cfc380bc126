// The `check` command and its flags. The contract runner itself (check.ts) is loaded when
// the command runs: `serve` starts without it.
import { type Command, InvalidArgumentError, Option } from 'commander';
import { DEFAULT_BUDGET_MS } from '../contract/model/budget.js';
import { GROUPS } from '../contract/run/groups.js';

export interface CheckFlags {
  readonly baseUrl?: string;
  readonly login?: string;
  readonly password?: string;
  readonly lowLogin?: string;
  readonly lowPassword?: string;
  readonly operatorLogin?: string;
  readonly operatorPassword?: string;
  readonly token?: string;
  readonly seed?: number;
  readonly allowWrites?: boolean;
  readonly probeLimits?: boolean;
  readonly probeRequests?: number;
  readonly maxWait?: number;
  readonly strict?: boolean;
  readonly reporter: 'console' | 'json' | 'junit' | 'html' | 'markdown';
  readonly minCoverage?: number;
  readonly output?: string;
  readonly timeout?: number;
  readonly maxDuration?: number;
  readonly maxRecords?: number;
  readonly budget?: number;
  readonly cases?: string | false;
  readonly only?: string[];
  readonly compareWith?: string;
  readonly compareLogin?: string;
  readonly comparePassword?: string;
  readonly compareLowLogin?: string;
  readonly compareLowPassword?: string;
  readonly viaPrism?: boolean;
  readonly quiet?: boolean;
  readonly verbose?: boolean;
}

function integer(min: number) {
  return (value: string): number => {
    if (!/^\d+$/.test(value) || Number(value) < min) throw new InvalidArgumentError(`expected an integer of at least ${min}`);
    return Number(value);
  };
}

function percent(value: string): number {
  if (!/^\d+(\.\d+)?$/.test(value) || Number(value) > 100) throw new InvalidArgumentError('expected a percentage from 0 to 100');
  return Number(value);
}

const list = (value: string): string[] => value.split(',').map((s) => s.trim()).filter(Boolean);

/** The server and its administrator, as `check` and `record` take them (flags or the same environment variables). */
export function addServerOptions(command: Command, what: string): Command {
  return command
    .addOption(new Option('--base-url <url>', `the server to ${what}, e.g. http://127.0.0.1:4010`).env('MONITORING_API_BASE_URL'))
    .addOption(new Option('--login <login>', 'an administrator login (required)').env('MONITORING_API_LOGIN'))
    .addOption(new Option('--password <password>', "the administrator's password (required)").env('MONITORING_API_PASSWORD'));
}

/** How long `check` and `record` wait: each request, a block, the whole run. */
export function addWaitOptions(command: Command, maxDurationSeconds: number): Command {
  return command
    .addOption(new Option('--timeout <ms>', 'deadline of each request, whole: connecting, the headers and the body').argParser(integer(1)).default(10_000))
    .addOption(new Option('--max-wait <seconds>', 'longest wait for a block (Retry-After) to end').argParser(integer(0)).default(30))
    .addOption(new Option('--max-duration <seconds>', 'longest the whole run may take; then it stops with exit 2').argParser(integer(1)).default(maxDurationSeconds));
}

export function addCheckOptions(command: Command): Command {
  return addWaitOptions(addServerOptions(command, 'check'), 600)
    .addOption(new Option('--low-login <login>', 'a low-privilege login, for the permission checks').env('MONITORING_API_LOW_LOGIN'))
    .addOption(new Option('--low-password <password>', "the low-privilege user's password").env('MONITORING_API_LOW_PASSWORD'))
    .addOption(new Option('--operator-login <login>', 'a login that holds some permissions, not all (e.g. only manage-event-log), for the permission checks: accepted where it holds what an operation needs, refused where not').env('MONITORING_API_OPERATOR_LOGIN'))
    .addOption(new Option('--operator-password <password>', "the operator user's password").env('MONITORING_API_OPERATOR_PASSWORD'))
    .addOption(new Option('--token <token>', "the administrator's API token (default: the one its user record shows)").env('MONITORING_API_TOKEN'))
    .addOption(new Option('--seed <n>', 'seed of every generated input and choice (printed in every report)').argParser(integer(0)))
    .addOption(new Option('--allow-writes', 'allow writes that are restored afterwards (default: only on loopback targets)'))
    .addOption(new Option('--read-only', 'GET requests and session log-in/out only, even on loopback'))
    .addOption(new Option('--probe-limits', 'trip a rate limit on purpose and look for the block in the limit-block log'))
    .addOption(new Option('--probe-requests <n>', 'requests of the rate-limit probe').argParser(integer(1)).default(300))
    .addOption(new Option('--strict', 'notes (differences from gap-fills) and inconclusive checks fail the run too'))
    .addOption(new Option('--reporter <name>', 'report format').choices(['console', 'json', 'junit', 'html', 'markdown']).default('console'))
    .addOption(new Option('--min-coverage <percent>', 'fail the run (exit 1) when fewer of the documented statuses were seen').argParser(percent))
    .addOption(new Option('--output <file>', 'write the report to this file instead of stdout (with junit, the console summary still goes to stdout)'))
    .addOption(new Option('--max-records <n>', 'the explicit large limit of reference lists, and the most records of the window queries are judged in').argParser(integer(2)).default(200))
    .addOption(new Option('--budget <seconds>', 'time for generated cases (queries judged against the model); a failure found is shrunk for up to as long again').argParser(integer(1)).default(DEFAULT_BUDGET_MS / 1000))
    .addOption(new Option('--cases <dir>', 'folder of contract cases (default: the kit\'s contracts/)'))
    .addOption(new Option('--no-cases', 'run no contract cases'))
    .addOption(new Option('--only <groups>', `run only these groups, comma-separated: ${GROUPS.join(', ')}`).argParser(list))
    .addOption(new Option('--compare-with <url>', 'send the same requests to a second server and report where the answers differ, by kind'))
    .addOption(new Option('--compare-login <login>', "an administrator login of the --compare-with server (default: --login and --password, and the low-privilege pair, are used for both)").env('MONITORING_API_COMPARE_LOGIN'))
    .addOption(new Option('--compare-password <password>', "that administrator's password").env('MONITORING_API_COMPARE_PASSWORD'))
    .addOption(new Option('--compare-low-login <login>', 'a low-privilege login of the --compare-with server').env('MONITORING_API_COMPARE_LOW_LOGIN'))
    .addOption(new Option('--compare-low-password <password>', "that low-privilege user's password").env('MONITORING_API_COMPARE_LOW_PASSWORD'))
    .addOption(new Option('--via-prism', 'run through `prism proxy` in front of the base URL and report its violations too'))
    .addOption(new Option('--quiet', 'no progress lines'))
    .addOption(new Option('--verbose', 'the console report lists every finding, the table of every operation and check, and the coverage of each operation (default: each cause of findings once)'));
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
    // Loaded only when the command runs, so that `serve` does not load the contract runner.
    const { runCheck } = await import('./check.js');
    process.exitCode = await runCheck(flags);
  });
  return command;
}
